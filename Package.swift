// swift-tools-version:6.0
import PackageDescription

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "relavoi-agent",
    products: [
        .library(name: "RelavoiSDK", targets: ["RelavoiSDK"]),
        .executable(name: "relavoi-agent", targets: ["relavoi-agent"]),
        .executable(name: "relavoi-sandbox", targets: ["relavoi-sandbox"]),
        // The Relavoi window (GTK 4 + libadwaita): its own program, so the agent links no GTK.
        .executable(name: "relavoi-window", targets: ["relavoi-window"]),
    ],
    targets: [
        // System libraries: Debian -dev packages found through pkg-config.
        .systemLibrary(
            name: "CGLib", path: "Sources/C/CGLib", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(
            name: "CNotify", path: "Sources/C/CNotify", pkgConfig: "libnotify", providers: [.apt(["libnotify-dev"])]),
        .systemLibrary(
            name: "CSoup", path: "Sources/C/CSoup", pkgConfig: "libsoup-3.0", providers: [.apt(["libsoup-3.0-dev"])]),
        .systemLibrary(
            name: "CSecret", path: "Sources/C/CSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]
        ),
        .systemLibrary(
            name: "CDbusmenu", path: "Sources/C/CDbusmenu", pkgConfig: "dbusmenu-glib-0.4",
            providers: [.apt(["libdbusmenu-glib-dev"])]),
        // Only the window links these (pkg-config libadwaita-1, which brings gtk4).
        .systemLibrary(
            name: "CAdw", path: "Sources/C/CAdw", pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev", "libgtk-4-dev"])]),

        // Pure Swift, no C: what the programs and the SDK share (events, JSON, setting values,
        // phrases, the health reading, the offers, the SDK's exported types). The window links this.
        .target(name: "RelavoiCore", path: "Sources/Core/RelavoiCore", swiftSettings: swift6),
        // Pure Swift, no C: the agent's state machines and what only they use (calls, banners and
        // the per-server rules, delivery, the stream's connection and frames, health, the desktop's
        // life, media pause, the tray item's view). The engines, the agent and the SDK link it; the
        // window does not.
        .target(
            name: "RelavoiMachines", dependencies: ["RelavoiCore"], path: "Sources/Core/RelavoiMachines",
            swiftSettings: swift6),

        // Thin adapters over C. Only these (and the sandbox) name g_/notify_/soup_/secret_.
        .target(
            name: "RelavoiGLib", dependencies: ["CGLib"], path: "Sources/Adapters/RelavoiGLib", swiftSettings: swift6),
        .target(
            name: "RelavoiNotify",
            dependencies: ["RelavoiCore", "RelavoiMachines", "RelavoiGLib", "RelavoiDBus", "CGLib", "CNotify"],
            path: "Sources/Engines/RelavoiNotify",
            swiftSettings: swift6),
        .target(
            name: "RelavoiSoup", dependencies: ["RelavoiGLib", "CGLib", "CSoup"], path: "Sources/Adapters/RelavoiSoup",
            swiftSettings: swift6),
        // GDBus behind Swift types: DBusValue (converted to GVariant in one place), exported
        // objects, name owning and watching, method calls. The agent and the tray name no GDBus.
        .target(
            name: "RelavoiDBus", dependencies: ["RelavoiGLib", "CGLib"], path: "Sources/Adapters/RelavoiDBus",
            swiftSettings: swift6),
        // Readable phone numbers: Debian's libphonenumber (C++, no .pc file) behind a C function,
        // opened with dlopen on the first number (about 8 MiB resident with protobuf and ICU).
        .target(name: "CPhoneNumber", path: "Sources/C/CPhoneNumber"),
        .target(
            name: "RelavoiPhone", dependencies: ["CPhoneNumber"], path: "Sources/Adapters/RelavoiPhone",
            swiftSettings: swift6),
        // The panel item: org.kde.StatusNotifierItem on RelavoiDBus, its menu over libdbusmenu-glib.
        .target(
            name: "RelavoiTray",
            dependencies: ["RelavoiCore", "RelavoiMachines", "RelavoiGLib", "RelavoiDBus", "CGLib", "CDbusmenu"],
            path: "Sources/Adapters/RelavoiTray",
            swiftSettings: swift6),
        // gettext (GLib's i18n functions): the agent's texts in the user's language.
        .target(
            name: "RelavoiI18n", dependencies: ["RelavoiCore", "RelavoiGLib", "CGLib"],
            path: "Sources/Adapters/RelavoiI18n", swiftSettings: swift6),
        // The session around the agent: logind's sleep lock, GNetworkMonitor, the session bus closing.
        .target(
            name: "RelavoiDesktop", dependencies: ["RelavoiGLib", "RelavoiDBus", "CGLib"],
            path: "Sources/Adapters/RelavoiDesktop", swiftSettings: swift6),
        // GTK 4 and libadwaita behind Swift types for the window: builder files, widgets, signals.
        .target(
            name: "RelavoiGtk", dependencies: ["RelavoiGLib", "CGLib", "CAdw"], path: "Sources/Adapters/RelavoiGtk",
            swiftSettings: swift6),
        // The desktop keyring (Secret Service) through libsecret, bounded in time.
        .target(
            name: "RelavoiSecret", dependencies: ["RelavoiGLib", "CGLib", "CSecret"],
            path: "Sources/Adapters/RelavoiSecret", swiftSettings: swift6),

        // agent.conf: where it is, reading it (with the environment) and writing keys into it. The
        // agent, its login and SDK hosts (which honour `banners-enabled`) share this one parser.
        .target(
            name: "RelavoiSettings", dependencies: ["RelavoiCore", "RelavoiGLib"],
            path: "Sources/Contracts/RelavoiSettings", swiftSettings: swift6),
        // The banner engine: every banner of the process (BannerMachine, one timer, the renderer for
        // the server, the delivery thread). LiveActivityManager and the agent both drive it.
        .target(
            name: "RelavoiBanners", dependencies: ["RelavoiCore", "RelavoiMachines", "RelavoiGLib", "RelavoiNotify"],
            path: "Sources/Engines/RelavoiBanners",
            swiftSettings: swift6),
        // Relavoi's terms for a client: the configuration and errors (the SDK's RelavoiConfig and
        // RelavoiError), the token request, and sign-in's check of a key and secret.
        .target(
            name: "RelavoiStream", dependencies: ["RelavoiCore", "RelavoiGLib", "RelavoiSoup"],
            path: "Sources/Contracts/RelavoiStream", swiftSettings: swift6),
        // The event stream engine: token refresh, WebSocket, reconnects, REST look-ups (libsoup).
        // RelavoiEvents is its public face; the agent drives it directly.
        .target(
            name: "RelavoiStreamEngine",
            dependencies: ["RelavoiCore", "RelavoiMachines", "RelavoiGLib", "RelavoiSoup", "RelavoiStream"],
            path: "Sources/Engines/RelavoiStreamEngine",
            swiftSettings: swift6),
        // The public API that mirrors the iOS SDK, and nothing else.
        .target(
            name: "RelavoiSDK",
            dependencies: [
                "RelavoiCore", "RelavoiMachines", "RelavoiGLib", "RelavoiStream", "RelavoiStreamEngine",
                "RelavoiBanners", "RelavoiSettings",
            ], path: "Sources/SDK/RelavoiSDK",
            swiftSettings: swift6),

        // A local Relavoi-compatible server: demo, tests and benchmarks run against it.
        .target(
            name: "RelavoiSandboxKit", dependencies: ["RelavoiCore", "RelavoiGLib", "CGLib", "CSoup"],
            path: "Sources/Programs/RelavoiSandboxKit",
            swiftSettings: swift6),
        .executableTarget(
            name: "relavoi-sandbox", dependencies: ["RelavoiSandboxKit", "RelavoiGLib"],
            path: "Sources/Programs/relavoi-sandbox", swiftSettings: swift6),

        // The agent's contract for its clients (the window, `ctl`, `login`): its D-Bus names and
        // the Calls and Health readings, sign-in's checks, the keyring, GNOME's extension switch.
        // No daemon code: the window links this, not RelavoiAgentKit.
        .target(
            name: "RelavoiClient",
            dependencies: [
                "RelavoiCore", "RelavoiGLib", "RelavoiDBus", "RelavoiSecret", "RelavoiSettings", "RelavoiStream",
            ], path: "Sources/Contracts/RelavoiClient",
            swiftSettings: swift6),
        // The session agent: settings, secrets, D-Bus control interface, events -> banners.
        // It names no g_/notify_/soup_/secret_ function: the adapters above do.
        .target(
            name: "RelavoiAgentKit",
            dependencies: [
                "RelavoiStream", "RelavoiStreamEngine", "RelavoiClient", "RelavoiBanners", "RelavoiSettings",
                "RelavoiCore", "RelavoiMachines", "RelavoiGLib", "RelavoiDBus", "RelavoiTray", "RelavoiPhone",
                "RelavoiI18n", "RelavoiDesktop", "RelavoiSecret", "RelavoiNotify",
            ], path: "Sources/Programs/RelavoiAgentKit",
            swiftSettings: swift6),
        .executableTarget(
            name: "relavoi-agent", dependencies: ["RelavoiAgentKit"], path: "Sources/Programs/relavoi-agent",
            swiftSettings: swift6,
            // Release: lld's packed relative relocations (DT_RELR, glibc 2.36) instead of 0.9 MiB of
            // .rela.dyn that the loader reads at every start (docs/bench.md: -0.9 MiB resident).
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                    .when(configuration: .release))
            ]),
        // The window's pages: sign in (login's rules), status (the agent over D-Bus), settings
        // (agent.conf through the agent's parser). Names no gtk_/adw_ function: RelavoiGtk does.
        .target(
            name: "RelavoiWindowKit",
            dependencies: [
                "RelavoiGtk", "RelavoiClient", "RelavoiSettings", "RelavoiStream", "RelavoiCore", "RelavoiGLib",
                "RelavoiDBus", "RelavoiPhone", "RelavoiI18n",
            ], path: "Sources/Programs/RelavoiWindowKit",
            swiftSettings: swift6),
        .executableTarget(
            name: "relavoi-window", dependencies: ["RelavoiWindowKit"], path: "Sources/Programs/relavoi-window",
            swiftSettings: swift6),
        // Real notification servers and the agent as a process, for the tests and for Tools/ (the
        // bench and the soak): python3-dbusmock, the agent harness, waits on the loop. No XCTest.
        .target(
            name: "RelavoiTestSupport",
            dependencies: [
                "RelavoiAgentKit", "RelavoiBanners", "RelavoiCore", "RelavoiSettings", "RelavoiGLib", "CGLib",
            ],
            path: "Tests/RelavoiTestSupport",
            swiftSettings: swift6),
        // The tests' side of it: skips where a server cannot start, dunst under Xvfb.
        .target(
            name: "RelavoiXCTestSupport", dependencies: ["RelavoiTestSupport"],
            path: "Tests/RelavoiXCTestSupport", swiftSettings: swift6),
        .testTarget(
            name: "RelavoiCoreTests",
            dependencies: ["RelavoiCore", "RelavoiMachines", "RelavoiSettings", "KeyFileText", "RelavoiTestSupport"],
            swiftSettings: swift6),
        .testTarget(
            name: "RelavoiGLibTests", dependencies: ["RelavoiGLib", "CGLib", "RelavoiTestSupport"],
            swiftSettings: swift6),
        .testTarget(
            name: "RelavoiDBusTests", dependencies: ["RelavoiDBus", "RelavoiGLib", "RelavoiTestSupport", "CGLib"],
            swiftSettings: swift6),
        .testTarget(
            name: "RelavoiSDKTests",
            dependencies: [
                "RelavoiSDK", "RelavoiStream", "RelavoiStreamEngine", "RelavoiBanners", "RelavoiSettings",
                "RelavoiGLib", "RelavoiSandboxKit",
                "RelavoiTestSupport", "RelavoiXCTestSupport", "CGLib",
            ],
            swiftSettings: swift6),
        .testTarget(
            name: "RelavoiAgentTests",
            dependencies: [
                "RelavoiAgentKit", "RelavoiClient", "RelavoiStream", "RelavoiStreamEngine", "RelavoiBanners",
                "RelavoiSettings", "RelavoiDBus",
                "RelavoiDesktop",
                "RelavoiSandboxKit", "RelavoiTestSupport",
                "RelavoiXCTestSupport",
                "RelavoiGLib",
                "CGLib",
            ],
            swiftSettings: swift6),
        .testTarget(name: "RelavoiPhoneTests", dependencies: ["RelavoiPhone"], swiftSettings: swift6),
        .testTarget(
            name: "RelavoiSettingsTests", dependencies: ["RelavoiSettings", "RelavoiCore", "RelavoiMachines"],
            swiftSettings: swift6),
        .testTarget(
            name: "RelavoiNotifyTests",
            dependencies: [
                "RelavoiNotify", "RelavoiCore", "RelavoiGLib", "RelavoiTestSupport", "RelavoiXCTestSupport", "CGLib",
            ],
            swiftSettings: swift6),
        .testTarget(
            name: "RelavoiSandboxTests",
            dependencies: ["RelavoiSandboxKit", "RelavoiGLib", "RelavoiTestSupport", "CGLib"], swiftSettings: swift6),
        .testTarget(
            name: "RelavoiTestSupportTests", dependencies: ["RelavoiTestSupport", "RelavoiGLib"], swiftSettings: swift6),

        // Tools/ (make tools, make bench, make soak): the benchmark and the soak, on the agent's
        // modules; targets of this package, not products (nothing else may depend on them).
        // /proc readers (memory, CPU time, threads, fds) that relavoi-bench and relavoi-soak share,
        // on RelavoiGLib's ProcFile (the agent's own figures read through it too).
        .target(
            name: "RelavoiProcFS", dependencies: ["RelavoiGLib", "RelavoiTestSupport"],
            path: "Tools/Sources/RelavoiProcFS",
            swiftSettings: swift6),
        .executableTarget(
            name: "relavoi-bench",
            dependencies: [
                "RelavoiAgentKit", "RelavoiSDK", "RelavoiSandboxKit", "RelavoiCore", "RelavoiMachines",
                "RelavoiSettings", "RelavoiGLib", "CGLib", "RelavoiTestSupport", "RelavoiProcFS",
            ],
            path: "Tools/Sources/relavoi-bench", swiftSettings: swift6),
        // make soak: the release agent for SOAK_MINUTES against the sandbox and dbusmock.
        .executableTarget(
            name: "relavoi-soak",
            dependencies: [
                "RelavoiSandboxKit", "RelavoiAgentKit", "RelavoiDBus", "RelavoiGLib", "RelavoiCore", "RelavoiMachines",
                "CGLib", "RelavoiTestSupport", "RelavoiProcFS",
            ],
            path: "Tools/Sources/relavoi-soak", swiftSettings: swift6),

        // Hardening (docs/hardening.md): libFuzzer targets. A plain build makes them
        // corpus-replay tools; scripts/fuzz.sh builds them with -sanitize=fuzzer,address.
        .target(name: "RelavoiFuzzDriver", path: "Fuzz/Driver", swiftSettings: swift6),
        // GKeyFile in the small, pure: the settings fuzzer and the seed replay test share it.
        .target(name: "KeyFileText", path: "Fuzz/KeyFileText", swiftSettings: swift6),
        .executableTarget(
            name: "fuzz-frames", dependencies: ["RelavoiFuzzDriver", "RelavoiCore", "RelavoiMachines"],
            path: "Fuzz/fuzz-frames",
            swiftSettings: swift6),
        .executableTarget(
            name: "fuzz-settings",
            dependencies: ["RelavoiFuzzDriver", "RelavoiCore", "RelavoiSettings", "KeyFileText"],
            path: "Fuzz/fuzz-settings",
            swiftSettings: swift6),
        .executableTarget(
            name: "fuzz-dbus", dependencies: ["RelavoiFuzzDriver", "RelavoiAgentKit", "RelavoiCore"],
            path: "Fuzz/fuzz-dbus", swiftSettings: swift6),
        .executableTarget(
            name: "fuzz-tray-menu", dependencies: ["RelavoiFuzzDriver", "RelavoiCore", "RelavoiMachines"],
            path: "Fuzz/fuzz-tray-menu",
            swiftSettings: swift6),
        .testTarget(
            name: "RelavoiFuzzTests",
            dependencies: ["fuzz-frames", "fuzz-settings", "fuzz-dbus", "fuzz-tray-menu", "KeyFileText"],
            path: "Fuzz/Tests",
            swiftSettings: swift6),

    ]
)
