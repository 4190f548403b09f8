import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 56, `--light`: the backlight set through python-dbusmock's logind on a private system
/// bus (its session given logind's SetBrightness, which writes a stand-in of /sys/class/backlight
/// as logind writes the real one), by the real binary: the sunrise's calls rising to the highest
/// by the ring, the level found put back after it, and after a SIGKILL'd ring by the next wake to
/// start. (The timing on the fake clock: WakeRuntimeTests/LightRunnerTests.)
@Suite("--light through logind", .serialized, .enabled(if: LogindMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
struct LightEndToEndTests {
    /// Two backlights, as a laptop lists them: the firmware's (the one to set) and the driver's.
    static func sysfs(in home: AlarmHome) throws -> String {
        let root = home.dir.file("backlight")
        for (name, type, highest, level) in [("acpi_video0", "firmware", 100, 40), ("intel_backlight", "raw", 19393, 9000)] {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
            for (file, text) in [("type", type), ("max_brightness", "\(highest)"), ("brightness", "\(level)")] {
                try "\(text)\n".write(toFile: "\(root)/\(name)/\(file)", atomically: false, encoding: .utf8)
            }
        }
        return root
    }

    /// A home with the stand-in backlights, and a session on seat0 that logind lets set them:
    /// the home, the backlights' directory and wake's environment.
    static func litHome(_ logind: LogindMock) async throws -> (AlarmHome, String, [String: String]) {
        let home = try AlarmHome()
        let root = try sysfs(in: home)
        try await logind.addSession("c1")
        try await logind.addBrightnessControl(session: "c1", sysfs: root)
        return (home, root, home.environment.merging(logind.environment) { $1 }.merging(["WAKE_TEST_BACKLIGHT_DIR": root]) { $1 })
    }

    static func level(_ root: String) -> Int? {
        Int(((try? String(contentsOfFile: root + "/acpi_video0/brightness", encoding: .utf8)) ?? "").filter(\.isNumber))
    }

    @Test("a sunrise from config.toml, part-way into a short wait: rising to 100 by the ring, 40 again after it; the doctor's line")
    func sunriseAndRestore() async throws {
        try await LogindMock.with { logind in
            let (home, root, env) = try await Self.litHome(logind)
            try home.writeConfigFile("light = \"sunrise:1m\"\n", name: "config.toml")
            let r = try await WakeProcess.run(["+8s", "-D", "null", "--ring-for", "2s", "--inhibit", "off", "--notify", "off"],
                                              environment: env, timeout: .seconds(60))
            #expect(r.exitCode == 4, "timed out unanswered: \(r)")
            #expect(r.stderr.contains("note: --light sunrise:1m: the sunrise of 1m is longer than the wait (") &&
                    r.stderr.contains("(config.toml's light); it starts part-way"), "\(r)")
            let calls = logind.brightnessCalls
            #expect(calls.allSatisfy { $0.device == "acpi_video0" }, "the firmware's device: \(calls)")
            let values = calls.map(\.value)
            let atRing = try #require(values.firstIndex(of: 100), "the highest at the ring: \(values)")
            #expect(atRing >= 3 && Array(values[..<atRing]) == values[..<atRing].sorted() && values[0] >= 50,
                    "rising from part-way: \(values)")
            #expect(values.last == 40 && Self.level(root) == 40, "put back as it was: \(values)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: home.dir.file("state") + "/wake")) ?? []
            #expect(!left.contains { $0.hasPrefix("light-") }, "the save file goes with the restore: \(left)")

            #expect(try await WakeProcess.run(["add", "06:30", "--days", "daily", "--name", "work", "-D", "null", "--light", "flash"],
                                              environment: env).exitCode == 0)
            let doctor = try await WakeProcess.run(["doctor"], environment: env, timeout: .seconds(60))
            #expect(doctor.stdout.contains("the screen lights for the alarm: the backlight 'acpi_video0' (0 to 100) through logind"),
                    "\(doctor)")
        }
    }

    @Test("a flash killed mid-ring (SIGKILL): the next wake to start puts the backlight back and says so")
    func restoredAfterKill() async throws {
        try await LogindMock.with { logind in
            let (home, root, env) = try await Self.litHome(logind)
            let wake = try DetachedWake(["+1s", "-D", "null", "--light", "flash", "--inhibit", "off", "--notify", "off"], environment: env)
            _ = try await wake.waitForEvent("ringing")
            let deadline = ContinuousClock.now + .seconds(20)
            while Set(logind.brightnessCalls.map(\.value)) != [100, 1], ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(Set(logind.brightnessCalls.map(\.value)) == [100, 1], "lit and low by turns: \(logind.brightnessCalls)")
            let saved = home.dir.file("state") + "/wake/light-\(wake.pid).state"
            #expect(FileManager.default.fileExists(atPath: saved), "saved before the first change")
            wake.send(SIGKILL)
            _ = await wake.wait()
            #expect(Self.level(root) != 40)
            let next = try await WakeProcess.run(["list"], environment: env)
            #expect(next.stderr.contains("put back the backlight 'acpi_video0' that wake (pid \(wake.pid)) lit before it died: 40 of 100"),
                    "\(next)")
            #expect(Self.level(root) == 40 && !FileManager.default.fileExists(atPath: saved))
            let again = try await WakeProcess.run(["list"], environment: env)
            #expect(!again.stderr.contains("backlight"), "once: \(again)")
        }
    }

    @Test("nothing to light: no backlight, or no session on a seat, is a warning at arm time; the alarm is set all the same")
    func warnings() async throws {
        try await LogindMock.with { logind in
            let home = try AlarmHome()
            let root = try Self.sysfs(in: home)
            let empty = home.dir.file("none")
            mkdir(empty, 0o755)
            let env = home.environment.merging(logind.environment) { $1 }
            var r = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--light", "flash"],
                                              environment: env.merging(["WAKE_TEST_BACKLIGHT_DIR": empty]) { $1 })
            #expect(r.exitCode == 0 && r.stderr.contains("warning: --light flash: no backlight under \(empty) (an external monitor "
                                                         + "has none wake can set); the alarm rings without light"), "\(r)")
            r = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--light", "sunrise:10m"],
                                          environment: env.merging(["WAKE_TEST_BACKLIGHT_DIR": root]) { $1 })
            #expect(r.exitCode == 0 && r.stderr.contains("warning: --light sunrise:10m: the backlight 'acpi_video0' cannot be set: "
                                                         + "no login session of this user is on a seat"), "\(r)")
        }
    }
}
