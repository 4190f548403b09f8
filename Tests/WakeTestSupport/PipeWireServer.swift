import Foundation
import Glibc

/// What the sound-server tests need of a server: its clients' environment, pactl, a recorder on
/// a sink's monitor, a crash and a restart. PulseAudio and PipeWire (through pipewire-pulse)
/// both answer the same pactl and parec.
protocol SoundServerFixture: AnyObject {
    var environment: [String: String] { get }
    var stateHome: String { get }
    func pactl(_ arguments: [String], timeout: Duration) async throws -> ProcessResult
    func record(sink: String) async throws -> PulseRecorder
    /// Returns once the server has stored the move of wake's stream to `target` (at most 10 s),
    /// and with `muted`, that mute state for it.
    func waitUntilRemembered(target: String, muted: Bool?) async
    func stop() async
}

extension SoundServerFixture {
    /// PulseAudio's module-stream-restore keeps what it remembers in memory at once.
    func waitUntilRemembered(target: String, muted: Bool?) async {}
}

extension PulseAudioServer: SoundServerFixture {}

/// A private PipeWire, as Debian 12's GNOME, Ubuntu and Fedora run it: `dbus-daemon --session`,
/// `pipewire`, `wireplumber` and `pipewire-pulse`, half a second apart, with `HOME`,
/// `XDG_CONFIG_HOME`, `XDG_STATE_HOME` (wireplumber's `restore-stream` remembers each stream's
/// mute and volume there) and `XDG_RUNTIME_DIR` (0700) in a fresh temporary directory. wake
/// reaches it through the pulse protocol (ALSA's pulse plugin behind `default`), as a desktop
/// without pipewire-alsa does. Two null sinks, `speaker` (the default) and `headphones`, are
/// made with `pactl load-module module-null-sink`.
final class PipeWireServer: SoundServerFixture {
    static let binaries = ["/usr/bin/pipewire", "/usr/bin/wireplumber", "/usr/bin/pipewire-pulse", "/usr/bin/dbus-daemon"]
    static var isAvailable: Bool {
        if ProcessInfo.processInfo.environment["CI"] != nil { return true }
        return PulseAudioServer.isAvailable && binaries.allSatisfy { access($0, X_OK) == 0 }
    }

    let directory: TestDirectory
    let runtimeDirectory: String
    private let home: String
    private let clientConfigPath: String
    private var processes: [ChildProcess] = []
    private var recorders: [PulseRecorder] = []

    var stateHome: String { directory.file("state") }
    var socketPath: String { runtimeDirectory + "/pulse/native" }

    /// The daemons' own environment.
    private var serverEnvironment: [String: String] {
        ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": stateHome, "XDG_RUNTIME_DIR": runtimeDirectory,
         "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtimeDirectory)/bus"]
    }

    /// What sends a client (wake, pactl, parec) to this server.
    var environment: [String: String] {
        ["PULSE_SERVER": "unix:\(socketPath)", "XDG_RUNTIME_DIR": runtimeDirectory, "PULSE_CLIENTCONFIG": clientConfigPath,
         "XDG_STATE_HOME": stateHome]
    }

    private init(directory: TestDirectory) throws {
        self.directory = directory
        runtimeDirectory = directory.file("run")
        home = directory.file("home")
        for d in [runtimeDirectory, home, home + "/.config", directory.file("state")] {
            guard mkdir(d, 0o700) == 0 else { throw WakeTestError("mkdir \(d): errno \(errno)") }
        }
        clientConfigPath = try directory.write("client.conf", Array("autospawn = no\n".utf8))
    }

    /// `sinks`: false starts a server as on a machine without a sound card: pipewire-pulse then
    /// offers only its "Dummy Output" (`auto_null`), until `makeSinks()`.
    static func with<T>(sinks: Bool = true, _ body: (PipeWireServer) async throws -> T) async throws -> T {
        let server = try PipeWireServer(directory: TestDirectory("wake-pipewire"))
        do {
            try await server.start(sinks: sinks)
            let r = try await body(server)
            await server.stop()
            return r
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Kills pipewire-pulse (SIGKILL), the server wake's stream talks to, as a crash; the null
    /// sinks it made go with it.
    func killPulse() async {
        guard let p = processes.last else { return }
        p.send(SIGKILL)
        await p.wait(timeout: .seconds(5))
        processes.removeLast()
    }

    /// Starts pipewire-pulse again (after `killPulse()`) and makes the sinks again.
    func restartPulse() async throws {
        processes.append(try ChildProcess("/usr/bin/pipewire-pulse", [], environment: serverEnvironment,
                                          unset: PulseAudioServer.sessionVariables, directory: directory))
        try await answerAndMakeSinks()
    }

    private func start(sinks: Bool) async throws {
        for binary in ["/usr/bin/dbus-daemon", "/usr/bin/pipewire", "/usr/bin/wireplumber", "/usr/bin/pipewire-pulse"] {
            let args = binary.hasSuffix("dbus-daemon") ? ["--session", "--nofork", "--address=unix:path=\(runtimeDirectory)/bus"] : []
            processes.append(try ChildProcess(binary, args, environment: serverEnvironment,
                                              unset: PulseAudioServer.sessionVariables, directory: directory))
            try await Task.sleep(for: .milliseconds(500))
        }
        try await waitUntilAnswering()
        if sinks { try await makeSinks() }
    }

    private func answerAndMakeSinks() async throws {
        try await waitUntilAnswering()
        try await makeSinks()
    }

    private func waitUntilAnswering() async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            if let r = try? await pactl(["info"]), r.exitCode == 0, r.stdout.contains("PipeWire") { break }
            if ContinuousClock.now >= deadline {
                throw WakeTestError("pipewire-pulse did not answer 'pactl info' within 30 s: \(processes.map(\.currentStderr))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The two null sinks, `speaker` (made the default) and `headphones`, once both are listed.
    func makeSinks() async throws {
        for args in [["load-module", "module-null-sink", "sink_name=speaker"], ["load-module", "module-null-sink", "sink_name=headphones"],
                     ["set-default-sink", "speaker"]] {
            let r = try await pactl(args)
            guard r.exitCode == 0 else { throw WakeTestError("pactl \(args.joined(separator: " ")) failed: \(r)") }
        }
        // The sinks appear through wireplumber: wait until both are listed.
        let listed = ContinuousClock.now + .seconds(10)
        while true {
            let r = try await pactl(["list", "short", "sinks"])
            if r.stdout.contains("speaker") && r.stdout.contains("headphones") { return }
            if ContinuousClock.now >= listed { throw WakeTestError("the null sinks did not appear: \(r)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func pactl(_ arguments: [String], timeout: Duration = .seconds(10)) async throws -> ProcessResult {
        try await PulseAudioServer.pactl(arguments, environment: environment, directory: directory, timeout: timeout)
    }

    /// wireplumber's restore-stream writes what it remembers to its state file a moment after a
    /// change (`Output/Audio:media.role:alarm:target=NAME` for wake's stream).
    /// A restore just before a stream ends reaches the file later still: a ring started before it
    /// is written finds the stream as it was before the restore.
    func waitUntilRemembered(target: String, muted: Bool?) async {
        func stored() -> Bool {
            let text = ChildProcess.read(stateHome + "/wireplumber/restore-stream")
            guard text.contains("media.role:alarm:target=\(target)") else { return false }
            guard let muted else { return true }
            // Whatever the file's layout (a key per property or a table per stream), wake's stream's mute.
            return text.split(separator: "\n").contains { line in
                let bare = line.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\"", with: "")
                return bare.contains("media.role:alarm") && (bare.contains("mute:\(muted)") || bare.contains("mute=\(muted)"))
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, !stored() {
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    func record(sink: String = "speaker") async throws -> PulseRecorder {
        let recorder = try await PulseRecorder.start(sink: sink, in: directory, environment: environment)
        recorders.append(recorder)
        return recorder
    }

    /// Stops the recorders and the daemons, the last started first.
    func stop() async {
        for r in recorders { await r.stop() }
        recorders = []
        for p in processes.reversed() {
            p.send(SIGTERM)
            await p.wait(timeout: .seconds(5))
        }
        processes = []
    }
}
