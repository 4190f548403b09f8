import Foundation
import Glibc

/// A private PulseAudio server, the desktop's sound server, for the tests that ring through it.
///
/// `start()` writes a three-line configuration and runs
///
///     pulseaudio -n -F DIR/pulse.pa --daemonize=no --exit-idle-time=-1 --disallow-exit
///                --use-pid-file=no --realtime=no --high-priority=no --log-target=stderr
///
/// with `HOME`, `XDG_CONFIG_HOME` and `XDG_RUNTIME_DIR` (mode 0700) in a fresh temporary
/// directory, then waits until `pactl info` answers on its socket. The configuration:
///
///     load-module module-native-protocol-unix socket=DIR/run/pulse/native auth-anonymous=1
///     load-module module-null-sink sink_name=speaker
///     set-default-sink speaker
///
/// Running as root needs nothing special: pulseaudio only warns ("This program is not intended
/// to be run as root (unless --system is specified)") and serves normally; `--system` is not
/// wanted (it changes the socket, the user and the configuration). `auth-anonymous=1` lets any
/// client on the socket in, so wake needs neither this HOME nor its cookie.
///
/// wake reaches the server through libasound2-plugins: `-D pulse`, and `-D default`, which
/// pulseaudio's `/etc/alsa/conf.d/99-pulse.conf` turns into `pulse` when a server answers.
/// Give wake `environment` (`PULSE_SERVER`, `XDG_RUNTIME_DIR`, a client configuration with
/// autospawn off, so a test can never start a second server).
///
/// `freeze()` sends SIGSTOP (the server hangs: every client call blocks, about 30 s per call in
/// the ALSA plugin, whatever the PCM's mode); `thaw()` sends SIGCONT; `stop()` thaws and kills
/// it. `record()` runs `parec -d speaker.monitor` into a raw file: what a listener would hear.
/// Use `PulseAudioServer.with { ... }` so the server is stopped on failure too (the
/// `ChildProcess` deinit kills it anyway).
final class PulseAudioServer: TestServer {
    static let pulseaudioPath = "/usr/bin/pulseaudio"
    static let pactlPath = "/usr/bin/pactl"
    static let parecPath = "/usr/bin/parec"

    /// True when pulseaudio, pactl and parec and the ALSA pulse plugin are installed. Under CI
    /// (`CI` set) always true: `make test` installs them, so a missing one fails loudly.
    static var isAvailable: Bool {
        if ProcessInfo.processInfo.environment["CI"] != nil { return true }
        let plugin = ["/usr/lib/x86_64-linux-gnu/alsa-lib/libasound_module_pcm_pulse.so",
                      "/usr/lib/aarch64-linux-gnu/alsa-lib/libasound_module_pcm_pulse.so"]
        return [pulseaudioPath, pactlPath, parecPath].allSatisfy { (p: String) in access(p, X_OK) == 0 }
            && plugin.contains { (p: String) in access(p, R_OK) == 0 }
    }

    let directory: TestDirectory
    /// The private `XDG_RUNTIME_DIR` (0700).
    let runtimeDirectory: String
    let home: String
    /// The server's native-protocol socket.
    let socketPath: String
    /// A client.conf with `autospawn = no`.
    let clientConfigPath: String
    private var server: ChildProcess
    private let configPath: String
    private var recorders: [PulseRecorder] = []

    var pid: pid_t { server.pid }
    /// `unix:<socket>`.
    var address: String { "unix:\(socketPath)" }

    /// The environment that sends a client (wake, pactl, aplay) to this server. `XDG_STATE_HOME`
    /// is private too: the mixer levels wake saves while it rings belong to this server.
    var environment: [String: String] {
        ["PULSE_SERVER": address, "XDG_RUNTIME_DIR": runtimeDirectory, "PULSE_CLIENTCONFIG": clientConfigPath,
         "XDG_STATE_HOME": stateHome]
    }

    /// The private `XDG_STATE_HOME` given to clients (wake's mixer save files go to `wake/` in it).
    var stateHome: String { directory.file("state") }

    /// Variables of the developer's session that must not leak into the server or its clients.
    static let sessionVariables = ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "PULSE_SERVER",
                                   "PULSE_RUNTIME_PATH", "PULSE_STATE_PATH", "PULSE_COOKIE", "PULSE_SINK",
                                   "PULSE_SOURCE", "ALSA_CONFIG_PATH"]

    private init(directory: TestDirectory, server: ChildProcess, runtime: String, home: String, socket: String, client: String,
                 config: String) {
        self.directory = directory
        self.server = server
        configPath = config
        runtimeDirectory = runtime
        self.home = home
        socketPath = socket
        clientConfigPath = client
    }

    /// Runs `body` with a fresh server and stops it afterwards whether or not `body` threw.
    static func with<T>(desktop: Bool = false, noDevice: Bool = false, _ body: (PulseAudioServer) async throws -> T) async throws -> T {
        try await using({ try await start(desktop: desktop, noDevice: noDevice) }, body)
    }

    /// `desktop`: as a desktop's server, with `module-stream-restore` (remembering each
    /// application's stream mute, volume and sink in this server's own `PULSE_STATE_PATH`) and a
    /// second null sink, `headphones`.
    ///
    /// `noDevice`: as a machine without a sound card: no null sink, but `module-always-sink`, which
    /// offers the "Dummy Output" (`auto_null`) until another sink appears.
    static func start(desktop: Bool = false, noDevice: Bool = false, timeout: Duration = .seconds(30)) async throws -> PulseAudioServer {
        guard access(pulseaudioPath, X_OK) == 0 else {
            throw WakeTestError("\(pulseaudioPath) is missing: apt-get install pulseaudio pulseaudio-utils libasound2-plugins (make deps-test)")
        }
        let dir = try TestDirectory("wake-pulse")
        let runtime = dir.file("run")
        let home = dir.file("home")
        for d in [runtime, home, home + "/.config"] {
            guard mkdir(d, 0o700) == 0 else { throw WakeTestError("mkdir \(d): errno \(errno)") }
        }
        guard chmod(runtime, 0o700) == 0 else { throw WakeTestError("chmod \(runtime): errno \(errno)") }
        guard mkdir(runtime + "/pulse", 0o700) == 0 else { throw WakeTestError("mkdir \(runtime)/pulse: errno \(errno)") }
        let socket = runtime + "/pulse/native"
        let base = """
            load-module module-native-protocol-unix socket=\(socket) auth-anonymous=1
            load-module module-null-sink sink_name=speaker
            set-default-sink speaker

            """
        let noDeviceModules = """
            load-module module-native-protocol-unix socket=\(socket) auth-anonymous=1
            load-module module-always-sink

            """
        let desktopModules = """
            load-module module-stream-restore restore_device=true restore_volume=true restore_muted=true
            load-module module-null-sink sink_name=headphones

            """
        let config = try dir.write("pulse.pa", Array(((noDevice ? noDeviceModules : base) + (desktop ? desktopModules : "")).utf8))
        let client = try dir.write("client.conf", Array("autospawn = no\n".utf8))
        let server = try launch(dir: dir, config: config, home: home, runtime: runtime)
        return try await PulseAudioServer(directory: dir, server: server, runtime: runtime, home: home, socket: socket, client: client,
                                          config: config).ready { try await $0.waitUntilAnswering(timeout: timeout) }
    }

    private static func launch(dir: TestDirectory, config: String, home: String, runtime: String) throws -> ChildProcess {
        try ChildProcess(pulseaudioPath, [
            "-n", "-F", config, "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
            "--realtime=no", "--high-priority=no", "--log-target=stderr",
        ], environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_RUNTIME_DIR": runtime,
                         "PULSE_STATE_PATH": dir.file("pulse-state")],
           unset: sessionVariables, directory: dir)
    }

    /// Kills the server dead (SIGKILL), as a crashed sound server, and reaps it.
    func killServer() async {
        server.send(SIGKILL)
        await server.wait(timeout: .seconds(5))
    }

    /// Starts the server again on the same socket and configuration (after `killServer()`), as a
    /// desktop's sound server that is restarted; returns once `pactl info` answers.
    func restart(timeout: Duration = .seconds(30)) async throws {
        if !server.hasExited { await killServer() }
        server = try PulseAudioServer.launch(dir: directory, config: configPath, home: home, runtime: runtimeDirectory)
        try await waitUntilAnswering(timeout: timeout)
    }

    private func waitUntilAnswering(timeout: Duration) async throws {
        let server = self.server
        try await TestServerProcesses.waitUntil(
            deadline: ContinuousClock.now + timeout, every: .milliseconds(50), watching: [("pulseaudio (at start)", server)],
            onTimeout: { "pulseaudio did not answer 'pactl info' within \(timeout)\nserver stderr:\n\(server.currentStderr)" }
        ) {
            guard FileManager.default.fileExists(atPath: socketPath), let r = try? await pactl(["info"]) else { return false }
            return r.exitCode == 0 && (r.stdout.contains("Default Sink: speaker") || r.stdout.contains("Default Sink: auto_null"))
        }
    }

    /// Runs pactl against this server (never against a frozen one: it would block).
    func pactl(_ arguments: [String], timeout: Duration = .seconds(10)) async throws -> ProcessResult {
        try await Self.pactl(arguments, environment: environment, directory: directory, timeout: timeout)
    }

    /// pactl against the server `environment` points to (PulseAudio, or pipewire-pulse).
    static func pactl(_ arguments: [String], environment: [String: String], directory: TestDirectory,
                      timeout: Duration) async throws -> ProcessResult {
        let p = try ChildProcess(pactlPath, arguments, environment: environment,
                                 unset: sessionVariables.filter { $0 != "PULSE_SERVER" }, directory: directory)
        let r = await p.wait(timeout: timeout)
        if r.timedOut { throw WakeTestError("pactl \(arguments.joined(separator: " ")) hung: \(r)") }
        return r
    }

    /// The server's log so far (its stderr).
    var log: String { server.currentStderr }

    /// /proc/PID/stat's state letter (T: stopped), nil once it is gone.
    var processState: Character? {
        guard let s = try? String(contentsOfFile: "/proc/\(server.pid)/stat", encoding: .utf8),
              let close = s.lastIndex(of: ")") else { return nil }
        let rest = s[s.index(after: close)...].drop { $0 == " " }
        return rest.first
    }

    /// Stops the server dead (SIGSTOP), as a hung sound server; returns once the kernel shows it stopped.
    func freeze() async throws {
        kill(server.pid, SIGSTOP)
        let deadline = ContinuousClock.now + .seconds(5)
        while processState != "T" {
            if ContinuousClock.now >= deadline { throw WakeTestError("pulseaudio did not stop (state \(processState.map(String.init) ?? "gone"))") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Lets a frozen server run again (SIGCONT).
    func thaw() { kill(server.pid, SIGCONT) }

    /// Stops the recorders and the server (SIGCONT, then SIGTERM; SIGKILL after 5 s) and reaps them.
    func stop() async {
        thaw()
        for r in recorders { await r.stop() }
        recorders = []
        await TestServerProcesses.terminate([server])
    }

    /// Starts recording what the `speaker` sink plays (its monitor), mono S16_LE 44.1 kHz.
    func record(sink: String = "speaker") async throws -> PulseRecorder {
        let recorder = try await PulseRecorder.start(sink: sink, in: directory, environment: environment)
        recorders.append(recorder)
        return recorder
    }
}

/// `parec -d speaker.monitor` writing raw mono S16_LE to a file.
///
/// A null sink's monitor delivers data only while something plays into the sink, so byte
/// offsets are not wall-clock times. Windows are therefore taken by position: `mark()` the
/// length now, and later ask whether audio arrived after (and before) a mark.
final class PulseRecorder {
    static let rate = 44_100
    /// A sample whose magnitude is above this is sound (dither and rounding stay far below).
    static let threshold: Int16 = 64
    let path: String
    private let process: ChildProcess

    /// Runs parec on `sink`'s monitor of the server `environment` points to, into a new file in
    /// `directory`; returns once it records (parec creates the file once it has connected).
    static func start(sink: String, in directory: TestDirectory, environment: [String: String]) async throws -> PulseRecorder {
        let path = directory.file("recording-\(UUID().uuidString.prefix(8)).raw")
        let p = try ChildProcess(PulseAudioServer.parecPath, [
            "-d", sink + ".monitor", "--raw", "--format=s16le", "--channels=1", "--rate=\(rate)", "--latency-msec=20", path,
        ], environment: environment, unset: PulseAudioServer.sessionVariables.filter { $0 != "PULSE_SERVER" }, directory: directory)
        let recorder = PulseRecorder(path: path, process: p)
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: path) {
            if p.hasExited {
                await recorder.stop()
                throw WakeTestError("parec exited: \(p.result.map { "\($0)" } ?? "?")")
            }
            if ContinuousClock.now >= deadline {
                await recorder.stop()
                throw WakeTestError("parec did not start recording: \(p.currentStderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return recorder
    }

    init(path: String, process: ChildProcess) {
        self.path = path
        self.process = process
    }

    /// The recording's length in bytes now: a position for `audibleFrames(from:to:)`.
    func mark() -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    /// The samples recorded between two marks (to the end without `to`).
    func samples(from: Int = 0, to: Int? = nil) -> [Int16] {
        guard let d = FileManager.default.contents(atPath: path) else { return [] }
        let bytes = [UInt8](d)
        let lo = min(from & ~1, bytes.count), hi = min((to ?? bytes.count) & ~1, bytes.count)
        guard hi > lo else { return [] }
        return int16Samples(bytes[lo..<hi])
    }

    /// How many samples between the marks are louder than silence.
    func audibleFrames(from: Int = 0, to: Int? = nil) -> Int {
        samples(from: from, to: to).filter { $0 > PulseRecorder.threshold || $0 < -PulseRecorder.threshold }.count
    }

    /// Seconds of recording between the marks.
    func seconds(from: Int = 0, to: Int? = nil) -> Double { Double(((to ?? mark()) - from) / 2) / Double(PulseRecorder.rate) }

    /// Waits until at least `frames` audible samples have arrived after `mark`; false on timeout.
    func waitForSound(after mark: Int = 0, frames: Int = PulseRecorder.rate / 10, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if audibleFrames(from: mark) >= frames { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return audibleFrames(from: mark) >= frames
    }

    /// Whether sound was recorded while `body` ran (from the mark before it to the mark after).
    func heardSound(frames: Int = PulseRecorder.rate / 10, during body: () async throws -> Void) async rethrows -> Bool {
        let before = mark()
        try await body()
        return audibleFrames(from: before, to: mark()) >= frames
    }

    func stop() async {
        process.send(SIGTERM)
        await process.wait(timeout: .seconds(5))
    }
}
