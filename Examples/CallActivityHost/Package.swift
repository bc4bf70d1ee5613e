// swift-tools-version:6.2
// A host app that uses RelavoiSDK the way the iOS SDK's guides do. It
// depends on this repository by path, as an integrator's package would.
import PackageDescription

let package = Package(
    name: "CallActivityHost",
    dependencies: [.package(name: "relavoi-agent", path: "../..")],
    targets: [
        // Only for the host-owned loop: the host runs GLib itself.
        .systemLibrary(name: "CHostGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // The SDK called from nonisolated code, detached tasks and an actor.
        .target(
            name: "AnyIsolation", dependencies: [.product(name: "RelavoiSDK", package: "relavoi-agent")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // App code isolated to the main actor by default, as Xcode 26 app targets are.
        .executableTarget(
            name: "CallActivityHost",
            dependencies: [.product(name: "RelavoiSDK", package: "relavoi-agent"), "AnyIsolation", "CHostGLib"],
            swiftSettings: [.swiftLanguageMode(.v6), .defaultIsolation(MainActor.self)]),
    ]
)
