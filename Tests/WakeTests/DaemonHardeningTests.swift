import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 25 against the real daemon: many alarms under the usual descriptor limit, a history on
/// a full disk, and two daemons over one alarms file. (The same rules run in-process with a
/// fake clock in WakeRuntimeTests' DaemonControllerTests.)
@Suite("Daemon hardening", .serialized)
struct DaemonHardeningTests {
    /// The alarms file, written directly (as a hand edit or a sync would): `wake add` four
    /// hundred times would take most of a minute.
    static func alarmsFile(_ alarms: [(name: String, time: String, device: String)]) -> String {
        var text = ""
        for a in alarms {
            text += "[alarms.\(a.name)]\ntime = \"\(a.time)\"\ndays = [\"mon\", \"tue\", \"wed\", \"thu\", \"fri\", \"sat\", \"sun\"]\n"
            text += "device = \"\(a.device)\"\nring-for = \"3s\"\ncreated = \"2026-01-01T00:00:00Z\"\n\n"
        }
        return text
    }

    static func ringings(_ events: String) -> Int {
        ChildProcess.read(events).components(separatedBy: "\"event\":\"ringing\"").count - 1
    }

    static func hasAudio(_ path: String) -> Bool {
        guard let d = FileManager.default.contents(atPath: path), d.count >= 19_200 else { return false }
        return d.contains { $0 != 0 }
    }

    @Test("401 alarms under a 1024 descriptor limit: a handful of descriptors, and the due one is heard",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "needs prlimit (util-linux)"))
    func manyAlarmsUnderTheLimit() async throws {
        let home = try AlarmHome()
        let capture = home.dir.file("due.raw")
        let events = home.dir.file("events.jsonl")
        // 400 alarms in the small hours, far from now whatever the time; one a few seconds ahead.
        var alarms = (0..<400).map { i in (name: "a\(i)", time: String(format: "%02d:%02d:%02d", i % 24, i % 60, 7), device: "null") }
        // None within the late limit (30 minutes) before now: those would ring at once.
        let near = [AlarmHome.soon(0), AlarmHome.soon(-3600), AlarmHome.soon(3600)].map { $0.prefix(2) }
        alarms = alarms.filter { !near.contains($0.time.prefix(2)) }
        alarms.append((name: "due", time: AlarmHome.soon(5), device: "file:'\(capture)',raw"))
        try FileManager.default.createDirectory(atPath: home.dir.file("config") + "/wake", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try Self.alarmsFile(alarms).write(toFile: home.alarmsFile, atomically: false, encoding: .utf8)

        let daemon = try ChildProcess("/usr/bin/prlimit", ["--nofile=1024:1024", WakeBinary.path, "daemon", "--inhibit", "off",
                                                           "--notify", "off", "--events", events],
                                      environment: home.environment, newSession: true, directory: home.dir)
        for _ in 0..<100 where Self.ringings(events) == 0 { try await Task.sleep(for: .milliseconds(200)) }
        #expect(Self.ringings(events) == 1, "the due alarm did not ring: \(ChildProcess.read(events).suffix(2000))")
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd").count) ?? -1
        #expect(fds > 0 && fds < 64, "descriptors held with \(alarms.count) alarms: \(fds)")
        for _ in 0..<50 where !Self.hasAudio(capture) { try await Task.sleep(for: .milliseconds(200)) }
        #expect(Self.hasAudio(capture), "no audio reached the device")
        daemon.send(SIGTERM)
        let end = await daemon.wait()
        #expect(end.exitCode == 0, "\(end)")
    }

    @Test("two daemons with different XDG_STATE_HOME over one alarms file: one rings, the other says so and exits 0")
    func twoStateHomesOneDaemon() async throws {
        let home = try AlarmHome()
        let events = home.dir.file("events.jsonl")
        let add = try await home.run(["add", AlarmHome.soon(5), "--name", "soon", "-D", "null", "--ring-for", "2s"])
        #expect(add.exitCode == 0, "\(add)")
        let first = try DetachedWake(["daemon", "--inhibit", "off", "--events", events], environment: home.environment,
                                     events: false, directory: home.dir)
        _ = try await first.waitForOutput(containing: "wake daemon running")
        var other = home.environment
        other["XDG_STATE_HOME"] = home.dir.file("other-state")
        let second = try await WakeProcess.run(["daemon", "--inhibit", "off"], environment: other)
        #expect(second.exitCode == 0, "\(second)")
        #expect(second.stdout.contains("a wake daemon already rings the alarms in") && second.stdout.contains("(pid \(first.pid))"),
                "\(second)")
        for _ in 0..<60 where Self.ringings(events) == 0 { try await Task.sleep(for: .milliseconds(200)) }
        try await Task.sleep(for: .seconds(1))
        #expect(Self.ringings(events) == 1)
        first.send(SIGTERM)
        #expect(await first.wait().exitCode == 0)
    }

    @Test("a history on a full disk: one warning, and four stops never ring the occurrence again",
          .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func fullDiskRingsOnce() async throws {
        let home = try AlarmHome()
        let config = home.dir.file("config")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let mounted = try await ChildProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", config]).wait()
        try #require(mounted.exitCode == 0, "mount: \(mounted)")
        defer { _ = umount2(config, Int32(MNT_DETACH)) }
        let events = home.dir.file("events.jsonl")
        let add = try await home.run(["add", AlarmHome.soon(5), "--name", "soon", "-D", "null", "--ring-for", "0", "--late-limit", "0"])
        #expect(add.exitCode == 0, "\(add)")
        // The disk fills up: the history can no longer be written.
        _ = try await ChildProcess("/bin/dd", ["if=/dev/zero", "of=\(config)/filler", "bs=4k", "count=64"]).wait()
        let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--events", events], environment: home.environment,
                                      events: false, directory: home.dir)
        for _ in 0..<60 where Self.ringings(events) == 0 { try await Task.sleep(for: .milliseconds(200)) }
        #expect(Self.ringings(events) == 1, "it did not ring: \(ChildProcess.read(events).suffix(2000))")
        for _ in 0..<4 {
            let stop = try await home.run(["stop"])
            #expect(stop.exitCode == 0 || stop.exitCode == 1, "\(stop)")
            try await Task.sleep(for: .milliseconds(1500))
        }
        #expect(Self.ringings(events) == 1, "rang again after a stop: \(ChildProcess.read(events).suffix(3000))")
        #expect(ChildProcess.read(events).contains("\"history_failed\""))
        daemon.send(SIGTERM)
        let end = await daemon.wait()
        #expect(end.exitCode == 0)
        let warnings = end.stderr.components(separatedBy: "cannot record what happened").count - 1
        #expect(warnings == 1, "\(end.stderr)")
    }
}
