// swift-tools-version:6.0
// The tools around the agent: the benchmark (make bench) and the soak (make soak).
// A package of its own, on the product's package by path, so Sources/ holds only
// the product; both run the main package's release relavoi-agent.
import PackageDescription

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

func product(_ name: String) -> Target.Dependency { .product(name: name, package: "relavoi-agent") }

let package = Package(
    name: "relavoi-tools",
    dependencies: [.package(name: "relavoi-agent", path: "..")],
    targets: [
        // /proc readers (memory, CPU time, threads, fds) that relavoi-bench and relavoi-soak share,
        // on RelavoiGLib's ProcFile (the agent's own figures read through it too).
        .target(
            name: "RelavoiProcFS", dependencies: [product("RelavoiGLib"), product("RelavoiTestSupport")],
            swiftSettings: swift6),
        .executableTarget(
            name: "relavoi-bench",
            dependencies: [
                product("RelavoiAgentKit"), product("RelavoiSDK"), product("RelavoiSandboxKit"), product("RelavoiCore"),
                product("RelavoiSettings"),
                product("RelavoiGLib"), product("CGLib"), product("RelavoiTestSupport"),
                "RelavoiProcFS",
            ],
            swiftSettings: swift6),
        // make soak: the release agent for SOAK_MINUTES against the sandbox and dbusmock.
        .executableTarget(
            name: "relavoi-soak",
            dependencies: [
                product("RelavoiSandboxKit"), product("RelavoiAgentKit"), product("RelavoiDBus"),
                product("RelavoiGLib"),
                product("RelavoiCore"), product("CGLib"), product("RelavoiTestSupport"), "RelavoiProcFS",
            ],
            swiftSettings: swift6),
    ]
)
