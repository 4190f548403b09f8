// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "wake",
    products: [
        .executable(name: "wake", targets: ["wake"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // C libraries, found through pkg-config; apt names the Debian package that provides them.
        // alsa-lib's headers; libasound is loaded with dlopen when wake first opens a PCM, a mixer
        // or ALSA's configuration (shim.h): no pkgConfig, whose `-lasound` would load it at every start.
        .systemLibrary(name: "CALSA", providers: [.apt(["libasound2-dev"])]),
        // libsndfile's headers; the library is loaded with dlopen when a sound is first opened
        // (shim.h): no pkgConfig, whose `-lsndfile` would load it and its codecs at every start.
        .systemLibrary(name: "CSndFile", providers: [.apt(["libsndfile1-dev"])]),
        // Linux headers the Glibc module leaves out (signalfd).
        .systemLibrary(name: "CLinux"),
        // sd-bus's headers; libsystemd is loaded with dlopen when wake first talks to a bus (shim.h).
        .systemLibrary(name: "CSystemd", providers: [.apt(["libsystemd-dev"])]),
        // libpulse's headers; the library itself is loaded with dlopen at ring time (shim.h), so no
        // pkgConfig here: its `-lpulse` would load it at every start of every command.
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        // espeak-ng's headers; the library is loaded with dlopen when an alarm with --say on is set
        // (shim.h): no pkgConfig, whose `-lespeak-ng` would load it and its data at every start.
        .systemLibrary(name: "CEspeak", providers: [.apt(["libespeak-ng-dev"])]),

        // wake's own alarm sound as samples (those of Resources/alarm.wav), embedded so a copied
        // binary still has it and plays it without libsndfile.
        .target(name: "CWakeSound"),

        // Pure core: parsing, time zones, scheduling, the alarm state machine. No clock, file or device.
        .target(name: "WakeCore"),

        // Thin wrappers over kernel and library facilities.
        .target(
            name: "WakeSystem",
            dependencies: [
                "WakeCore", "CALSA", "CSndFile", "CSystemd", "CLinux", "CPulse", "CEspeak",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // The engine: the reactor, the runner of armed alarms, the supervised output workers and
        // the JSON event log. It stands alone (tests drive it with a fake clock and output) and
        // knows nothing of sessions, the daemon or the command line.
        .target(name: "WakeEngine", dependencies: ["WakeCore", "WakeSystem"]),

        // The application on the engine: the one-off session and its arm-time checks, the daemon,
        // the control endpoint, the notifier, the standing-alarm actions, config.toml and the
        // console. A library, so tests drive it in-process; the executable only parses arguments
        // and calls in. It depends on the engine, never the reverse.
        .target(name: "WakeRuntime", dependencies: ["WakeCore", "WakeSystem", "WakeEngine", "CWakeSound"]),

        // The command line: the ArgumentParser types, the dispatch on the first word, the config
        // merge and the exit codes. A library, so tests drive a whole command line in-process.
        .target(
            name: "WakeCommandLine",
            dependencies: [
                "WakeCore", "WakeSystem", "WakeRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The executable only answers --version, starts the process and calls the library.
        .executableTarget(name: "wake", dependencies: ["WakeSystem", "WakeCommandLine"]),

        // Tests mirror the layers: the pure core, the C wrappers, the runtime in-process, the
        // command line in-process, the binary end to end. WakeTestSupport holds what they share
        // (children, temporary directories, the private servers); tests reach it with `@testable import`.
        .target(
            name: "WakeTestSupport",
            path: "Tests/WakeTestSupport",
            exclude: ["pty_driver.py", "system-bus.conf"]
        ),
        .testTarget(name: "WakeCoreTests", dependencies: ["WakeCore"]),
        .testTarget(
            name: "WakeSystemTests",
            dependencies: [
                "WakeCore", "WakeSystem", "WakeTestSupport", "CALSA", "CLinux",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["alarm_timer_client.py"]
        ),
        .testTarget(name: "WakeRuntimeTests", dependencies: ["WakeCore", "WakeSystem", "WakeEngine", "WakeRuntime"]),
        // The command line in process: a whole `wake ...` run through WakeMain in a test's world.
        .testTarget(
            name: "WakeCommandLineTests",
            dependencies: ["WakeCore", "WakeSystem", "WakeRuntime", "WakeCommandLine", "WakeTestSupport"]
        ),
        .testTarget(name: "WakeTests", dependencies: ["WakeCore", "WakeSystem", "WakeRuntime", "WakeTestSupport"]),
        // The hostile and long runs: bad input, injected faults, signal storms, clock steps, and
        // the long runs `make stress` enables (WAKE_STRESS=1; without it they are skipped).
        .testTarget(
            name: "WakeReliabilityTests",
            dependencies: ["WakeCore", "WakeSystem", "WakeEngine", "WakeTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
