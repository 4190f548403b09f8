import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 28's pre-roll, through the binary: a second before the deadline wake opens and
/// configures the device, so the ring starts within a millisecond of it, and holds it silent
/// until then. Watched from outside: wake's open descriptors (`/proc/PID/fd`) name the `file:`
/// PCM's output file about a second before the deadline, not during the wait (the arm-time check
/// closed it again), and the file is still empty when it is opened. The runner's side (when it
/// prepares, adopts, discards) and the output's (nothing written before the start) are tested
/// in-process; this checks that the one-off alarm wires them together.
@Suite("Pre-roll: the device is open before the deadline")
struct PrerollEndToEndTests {
    @Test("a one-off's device is opened about a second before the deadline, empty, and rings from the deadline")
    func deviceOpenBeforeTheDeadline() async throws {
        let dir = try TestDirectory("wake-preroll")
        let out = dir.file("out.raw")
        let wake = try DetachedWake(["+4s", "-D", "file:\(out),raw", "--inhibit", "off", "--notify", "off", "--ring-for", "2s"],
                                    environment: ["TZ": "UTC"], directory: dir)
        let armed = try await wake.waitForEvent("armed", timeout: .seconds(20))
        let deadline = try #require(armed["deadline"].flatMap(Self.date), "\(armed)")
        // As /proc names it (the temporary directory's path may hold a double slash); the
        // arm-time check created the file.
        let canonical = try #require(realpath(out, nil).map { p in defer { free(p) }; return String(cString: p) }, "no \(out)")
        #expect(!Self.holds(wake.pid, canonical), "the device is held during the wait")
        var openedAt: Date?
        var sizeWhenOpened: Int64?
        while openedAt == nil, !wake.hasExited, Date() < deadline.addingTimeInterval(10) {
            if Self.holds(wake.pid, canonical) {
                openedAt = Date()
                sizeWhenOpened = Self.size(out)
            } else {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        let r = await wake.wait(timeout: .seconds(20))
        #expect(r.exitCode == 4, "\(wake.report(r))")
        let opened = try #require(openedAt, "wake was never seen holding the device: \(wake.report(r))")
        let lead = deadline.timeIntervalSince(opened)
        #expect(lead > 0 && lead < 1.5, "opened \(lead) s before the deadline \(deadline): \(wake.report(r))")
        #expect(sizeWhenOpened == 0, "written before the deadline: \(sizeWhenOpened ?? -1) bytes")
        #expect((Self.size(out) ?? 0) > 0, "nothing rang into the file: \(wake.report(r))")
    }

    /// The event log's time: ISO-8601 with an offset, with or without milliseconds.
    static func date(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        if let d = f.date(from: text) { return d }
        f.formatOptions.insert(.withFractionalSeconds)
        return f.date(from: text)
    }

    /// Whether process `pid` has `path` open.
    static func holds(_ pid: pid_t, _ path: String) -> Bool {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path }
    }

    static func size(_ path: String) -> Int64? {
        var st = stat()
        return stat(path, &st) == 0 ? Int64(st.st_size) : nil
    }
}
