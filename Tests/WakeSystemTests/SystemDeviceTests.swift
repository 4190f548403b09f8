import Foundation
import Glibc
import CALSA
import Testing
@testable import WakeSystem
@testable import WakeTestSupport

/// Issue 12, items 8 and 25: the arm-time device probe, on real ALSA `null` and `file:` PCMs.
@Suite("System: DeviceProbe")
struct SystemDeviceProbeTests {
    @Test("file: PCM names: the path in each of ALSA's spellings")
    func parse() {
        #expect(DeviceProbe.fileTarget("file:'/tmp/x.raw',raw") == "/tmp/x.raw")
        #expect(DeviceProbe.fileTarget("file:/tmp/x.raw") == "/tmp/x.raw")
        #expect(DeviceProbe.fileTarget("file:\"/tmp/a b.raw\",raw") == "/tmp/a b.raw")
        #expect(DeviceProbe.fileTarget("file:FILE=/tmp/y,FORMAT=raw") == "/tmp/y")
        #expect(DeviceProbe.fileTarget("file:FORMAT=raw,FILE='/tmp/z'") == "/tmp/z")
        #expect(DeviceProbe.fileTarget("file:'|cat > /dev/null'") == nil)
        #expect(DeviceProbe.fileTarget("null") == nil)
        #expect(DeviceProbe.fileTarget("plughw:0") == nil)
    }

    @Test("null: configured and reported, clockless")
    func null() throws {
        let r = try DeviceProbe.probe(device: "null", format: .s16, channels: 2, rate: 44_100, sideEffectFree: true)
        #expect(r.isClockless && r.channels == 2 && r.rate == 44_100 && r.bufferFrames > 0 && r.format == "S16_LE, 2 ch, 44100 Hz", "\(r)")
    }

    @Test("a dry run's probe leaves the file: PCM's file exactly as it was")
    func sideEffectFree() throws {
        let dir = try TestDirectory("wake-sys")
        let content = Array("the user's precious data\n".utf8)
        let path = try dir.write("out.raw", content)
        _ = try DeviceProbe.probe(device: "file:'\(path)',raw", format: .s16, channels: 1, rate: 44_100, sideEffectFree: true)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == content)
        let fresh = dir.file("new.raw")
        _ = try DeviceProbe.probe(device: "file:'\(fresh)',raw", format: .s16, channels: 1, rate: 44_100, sideEffectFree: true)
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test("arming for real still writes through ALSA, so the real write path is checked")
    func realProbe() throws {
        let dir = try TestDirectory("wake-sys")
        let path = dir.file("out.raw")
        _ = try DeviceProbe.probe(device: "file:'\(path)',raw", format: .s16, channels: 1, rate: 44_100, sideEffectFree: false)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("a missing directory says so, in both modes, not 'Input/output error'")
    func missingDirectory() throws {
        let dir = try TestDirectory("wake-sys")
        let path = dir.file("nope/out.raw")
        for sideEffectFree in [true, false] {
            do {
                _ = try DeviceProbe.probe(device: "file:'\(path)',raw", format: .s16, channels: 1, rate: 44_100, sideEffectFree: sideEffectFree)
                Issue.record("accepted")
            } catch {
                #expect(error.message == "the directory '\(dir.file("nope"))' does not exist", "\(error)")
            }
        }
    }

    @Test("a FIFO or a directory as the output is refused without opening it")
    func badTargets() throws {
        let dir = try TestDirectory("wake-sys")
        let fifo = try makeFifo(dir, "f.raw")
        #expect(throws: ALSAError.self) {
            try DeviceProbe.probe(device: "file:'\(fifo)',raw", format: .s16, channels: 1, rate: 44_100, sideEffectFree: true)
        }
        #expect(throws: ALSAError.self) {
            try DeviceProbe.probe(device: "file:'\(dir.path)',raw", format: .s16, channels: 1, rate: 44_100, sideEffectFree: true)
        }
    }
}

/// Issue 12, item 24: the user's sound server from cron, ssh or a unit without XDG_RUNTIME_DIR.
/// The base (`/run/user`) is injected; the tests run as root, so the directory is made for uid 0
/// and chown'd to show another owner.
@Suite("System: SoundServerEnvironment")
struct SystemSoundServerTests {
    @Test("already set: nothing to do")
    func alreadySet() {
        #expect(SoundServerEnvironment.decide(current: "/run/user/1000", base: "/nonexistent", uid: 1000) == .alreadySet)
    }

    @Test("a safe /run/user/<uid> is used")
    func safe() throws {
        let base = try TestDirectory("wake-sys")
        let uid = getuid()
        let dir = base.file("\(uid)")
        #expect(mkdir(dir, 0o700) == 0)
        #expect(SoundServerEnvironment.decide(current: nil, base: base.path, uid: uid) == .use(dir))
        #expect(SoundServerEnvironment.decide(current: "", base: base.path, uid: uid) == .use(dir))
    }

    @Test("missing, writable by others, someone else's, or a link: a note, not used")
    func unsafe() throws {
        let base = try TestDirectory("wake-sys")
        let uid = getuid()
        let dir = base.file("\(uid)")
        guard case .note(let missing) = SoundServerEnvironment.decide(current: nil, base: base.path, uid: uid) else { Issue.record(); return }
        #expect(missing == "XDG_RUNTIME_DIR is unset and \(dir) does not exist, so the sound server (PulseAudio/PipeWire) cannot be found; only direct ALSA devices (hw:, plughw:) can ring")
        #expect(mkdir(dir, 0o777) == 0 && chmod(dir, 0o777) == 0)
        guard case .note(let open) = SoundServerEnvironment.decide(current: nil, base: base.path, uid: uid) else { Issue.record(); return }
        #expect(open.contains("is writable by others"))
        #expect(chmod(dir, 0o700) == 0 && chown(dir, 4242, 4242) == 0)
        guard case .note(let other) = SoundServerEnvironment.decide(current: nil, base: base.path, uid: uid) else { Issue.record(); return }
        #expect(other.contains("belongs to user 4242"))
        #expect(rmdir(dir) == 0 && symlink("/tmp", dir) == 0)
        guard case .note(let link) = SoundServerEnvironment.decide(current: nil, base: base.path, uid: uid) else { Issue.record(); return }
        #expect(link.contains("is not a directory"))
    }

    @Test("explaining a failed open of a sound-server device")
    func explain() throws {
        let base = try TestDirectory("wake-sys")
        let e = SoundServerEnvironment.explainUnreachable(device: "default", runtimeDir: nil, pulseServer: nil, base: base.path, uid: 1000)
        #expect(e == "XDG_RUNTIME_DIR is unset and \(base.path)/1000 does not exist, so the sound server (PulseAudio/PipeWire) cannot be found; run wake from your desktop session or set XDG_RUNTIME_DIR")
        #expect(SoundServerEnvironment.explainUnreachable(device: "hw:0", runtimeDir: nil, pulseServer: nil, base: base.path, uid: 1000) == nil)
        #expect(SoundServerEnvironment.explainUnreachable(device: "pulse", runtimeDir: nil, pulseServer: "tcp:host", base: base.path, uid: 1000) == nil)
        let empty = SoundServerEnvironment.explainUnreachable(device: "pipewire", runtimeDir: base.path, pulseServer: nil, base: base.path, uid: 1000)
        #expect(empty?.hasPrefix("no sound server (PulseAudio/PipeWire) is listening in XDG_RUNTIME_DIR='\(base.path)'") == true, "\(empty ?? "nil")")
        // With a listening socket there, the server is not the problem.
        let sock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(sock) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let path = base.file("pipewire-0")
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        #expect(bound == 0)
        #expect(SoundServerEnvironment.explainUnreachable(device: "default", runtimeDir: base.path, pulseServer: nil, base: base.path, uid: 1000) == nil)
    }
}

/// Tests that change process-wide state (the environment ALSA reads, stdio's stderr) run in a
/// child of this bundle: see `SystemChild`. Outside a child each body returns at once.
@Suite("SystemChildren", .serialized)
struct SystemChildren {
    @Test func brokenALSAConfig() throws {
        guard SystemChild.current == "brokenALSAConfig" else { return }
        do {
            _ = try PCM.deviceHints()
            Issue.record("a broken configuration listed devices")
        } catch {
            print("HINTS: \(error.message)")
        }
        do {
            _ = try PCM(device: "null", format: .s16, channels: 1, rate: 44_100)
            Issue.record("a broken configuration opened null")
        } catch {
            print("OPEN: \(error.message)")
        }
    }

    @Test func stdioStderrDiverted() throws {
        guard SystemChild.current == "stdioStderrDiverted" else { return }
        let path = ProcessInfo.processInfo.environment["WAKE_SYSTEM_OUT"] ?? "/dev/null"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let previous = wake_divert_stdio_stderr(fd)
        _ = wake_stdio_stderr_puts("a library line\n")
        _ = wake_stdio_stderr_puts("two lines\nin one write\n")
        wake_restore_stdio_stderr(previous)
        close(fd)
        ProcessStart.silenceLibraries()
        _ = wake_stdio_stderr_puts("LIBRARY-NOISE-MARKER\n")
        print("JACK_NO_START_SERVER=\(getenv("JACK_NO_START_SERVER").map { String(cString: $0) } ?? "unset")")
    }
}

@Suite("System: process-wide library setup, in child processes")
struct SystemProcessWideTests {
    @Test("a garbage ALSA_CONFIG_PATH: listing devices and opening throw, naming the configuration")
    func brokenConfig() async throws {
        let dir = try TestDirectory("wake-sys")
        let garbage = try dir.write("garbage.conf", Array("pcm.null { type null \n }}} ][ @@ this is not ALSA\n".utf8))
        let r = try await SystemChild.run("brokenALSAConfig", environment: ["ALSA_CONFIG_PATH": garbage])
        #expect(r.exitCode == 0, "\(r)")
        let want = "ALSA's configuration could not be loaded ("
        #expect(r.stdout.contains("HINTS: " + want) && r.stdout.contains("OPEN: " + want), "\(r)")
        #expect(r.stdout.contains("check ALSA_CONFIG_PATH and ~/.asoundrc"), "\(r)")
    }

    @Test("stdio's stderr goes elsewhere, line by line; wake's descriptor 2 does not")
    func stdio() async throws {
        let dir = try TestDirectory("wake-sys")
        let out = dir.file("lines")
        let r = try await SystemChild.run("stdioStderrDiverted", environment: ["WAKE_SYSTEM_OUT": out], unset: ["JACK_NO_START_SERVER"])
        #expect(r.exitCode == 0, "\(r)")
        let lines = try String(contentsOfFile: out, encoding: .utf8)
        #expect(lines == "a library line\ntwo lines\nin one write\n", "\(lines)")
        #expect(!r.stderr.contains("LIBRARY-NOISE-MARKER"), "\(r)")
        #expect(!r.stderr.contains("a library line"), "\(r)")
        #expect(r.stdout.contains("JACK_NO_START_SERVER=1"), "\(r)")
    }
}
