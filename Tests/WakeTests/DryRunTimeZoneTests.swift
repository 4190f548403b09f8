import Foundation
import Testing
import WakeCore
@testable import WakeTestSupport

/// A. `wake WHEN --dry-run`: the resolved time, printed with the offset its zone has at that
/// instant, and the wait, under several `TZ` settings.

/// The two lines of a dry run these tests read.
struct DryRunReport: CustomStringConvertible {
    var iso: String
    var local: LocalDateTime
    var offsetText: String
    var offsetSeconds: Int
    /// The printed instant, UTC seconds since the epoch.
    var utcSeconds: Int64
    var waitSeconds: Int64
    var waitHuman: String
    var description: String { "wake time: \(iso); wait: \(waitSeconds) s (\(waitHuman))" }

    init(_ stdout: String) throws {
        let lines = ProcessResult.lines(stdout)
        guard let timeLine = lines.first(where: { $0.hasPrefix("wake time: ") }) else {
            throw WakeTestError("no 'wake time:' line in:\n\(stdout)")
        }
        guard let waitLine = lines.first(where: { $0.hasPrefix("wait: ") }) else {
            throw WakeTestError("no 'wait:' line in:\n\(stdout)")
        }
        let iso = String(timeLine.dropFirst("wake time: ".count))
        self.iso = iso
        // YYYY-MM-DDTHH:MM:SS±HH:MM[:SS]
        let chars = Array(iso)
        guard chars.count >= 25, chars[4] == "-", chars[7] == "-", chars[10] == "T", chars[13] == ":", chars[16] == ":",
              chars[19] == "+" || chars[19] == "-", chars[22] == ":" else {
            throw WakeTestError("not ISO-8601 with an offset: '\(iso)'")
        }
        func num(_ a: Int, _ b: Int) throws -> Int {
            guard let n = Int(String(chars[a..<b])) else { throw WakeTestError("bad number in '\(iso)'") }
            return n
        }
        let local = LocalDateTime(date: CivilDate(year: try num(0, 4), month: try num(5, 7), day: try num(8, 10)),
                                  hour: try num(11, 13), minute: try num(14, 16), second: try num(17, 19))
        self.local = local
        offsetText = String(chars[19...])
        var off = try num(20, 22) * 3600 + num(23, 25) * 60
        if chars.count > 25 {
            guard chars.count == 28, chars[25] == ":" else { throw WakeTestError("bad offset in '\(iso)'") }
            off += try num(26, 28)
        }
        offsetSeconds = chars[19] == "-" ? -off : off
        utcSeconds = local.secondsAsIfUTC - Int64(chars[19] == "-" ? -off : off)

        // wait: N s (human)
        let rest = waitLine.dropFirst("wait: ".count)
        guard let sp = rest.firstIndex(of: " "), let n = Int64(rest[..<sp]),
              rest[sp...].hasPrefix(" s ("), rest.hasSuffix(")") else {
            throw WakeTestError("wait line not 'wait: <N> s (<human>)': '\(waitLine)'")
        }
        waitSeconds = n
        waitHuman = String(rest[rest.index(sp, offsetBy: 4)..<rest.index(before: rest.endIndex)])
    }
}

func loadZone(_ name: String) throws -> TimeZoneRules {
    if name == "UTC" { return .utc }
    let path = "/usr/share/zoneinfo/" + name
    guard let data = FileManager.default.contents(atPath: path) else { throw WakeTestError("cannot read \(path)") }
    return try TimeZoneRules(name: name, tzif: Array(data))
}

func unixNow() -> Double { Date().timeIntervalSince1970 }

@Suite("A. Time zones and dry run")
struct DryRunTimeZoneTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]
    static let whens = ["07:00", "23:59:59", "7:30pm", "+90m", "now", "2030-01-15T07:00", "2030-07-01T07:00:30"]

    @Test("the printed offset is the zone's offset at the printed instant", arguments: zones, whens)
    func offsetMatchesZone(zoneName: String, when: String) async throws {
        let before = unixNow()
        let r = try await WakeProcess.run([when, "--dry-run", "-D", "null"], environment: ["TZ": zoneName])
        let after = unixNow()
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr == "", "\(r)")
        let report = try DryRunReport(r.stdout)

        // The offset is what the zone says for that instant.
        let zone = try loadZone(zoneName)
        #expect(report.offsetSeconds == zone.offset(atUTC: report.utcSeconds), "\(zoneName) \(when): \(report)")
        if zoneName == "Asia/Kolkata" { #expect(report.offsetText == "+05:30", "\(report)") }
        if zoneName == "UTC" { #expect(report.offsetText == "+00:00", "\(report)") }

        // The wait matches the instant: N = the span rounded up to whole seconds, from some
        // moment between launching wake and its exit.
        let human = Formatting.span(seconds: report.waitSeconds)
        #expect(report.waitHuman == human, "\(report)")
        switch when {
        case "+90m":
            #expect(report.waitSeconds == 5400, "\(report)")
        case "now":
            #expect(report.waitSeconds == 0, "\(report)")
            #expect(Double(report.utcSeconds) >= before.rounded(.down) && Double(report.utcSeconds) <= after, "\(report)")
        default:
            let lo = Double(report.utcSeconds) - after
            let hi = Double(report.utcSeconds) - before + 1
            #expect(Double(report.waitSeconds) >= lo.rounded(.down) && Double(report.waitSeconds) <= hi.rounded(.up),
                    "wait \(report.waitSeconds) s does not match \(report.iso) (expected \(lo)...\(hi))")
        }

        // The local reading is what was asked for.
        switch when {
        case "07:00", "23:59:59", "7:30pm":
            let (h, m, s) = when == "07:00" ? (7, 0, 0) : when == "7:30pm" ? (19, 30, 0) : (23, 59, 59)
            #expect((report.local.hour, report.local.minute, report.local.second) == (h, m, s), "\(report)")
            // The next occurrence: in the future, and within a day (plus a DST hour).
            #expect(Double(report.utcSeconds) > before - 1, "\(report)")
            #expect(Double(report.utcSeconds) <= after + 25 * 3600, "\(report)")
        case "2030-01-15T07:00":
            #expect(report.iso.hasPrefix("2030-01-15T07:00:00"), "\(report)")
        case "2030-07-01T07:00:30":
            #expect(report.iso.hasPrefix("2030-07-01T07:00:30"), "\(report)")
        default:
            break
        }
    }

    /// Offsets known independently of the code under test (tz database facts).
    @Test("known offsets in winter and summer", arguments: [
        ("Europe/Berlin", "2030-01-15T07:00", "2030-01-15T07:00:00+01:00"),
        ("Europe/Berlin", "2030-07-01T07:00", "2030-07-01T07:00:00+02:00"),
        ("America/New_York", "2030-01-15T07:00", "2030-01-15T07:00:00-05:00"),
        ("America/New_York", "2030-07-01T07:00", "2030-07-01T07:00:00-04:00"),
        ("Australia/Lord_Howe", "2030-01-15T07:00", "2030-01-15T07:00:00+11:00"),
        ("Australia/Lord_Howe", "2030-07-01T07:00", "2030-07-01T07:00:00+10:30"),
        ("Asia/Kolkata", "2030-07-01T07:00", "2030-07-01T07:00:00+05:30"),
        ("UTC", "2030-07-01T07:00", "2030-07-01T07:00:00+00:00"),
    ])
    func knownOffsets(zoneName: String, when: String, expected: String) async throws {
        let r = try await WakeProcess.run([when, "--dry-run", "-D", "null"], environment: ["TZ": zoneName])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdoutLines.contains("wake time: \(expected)"), "\(r)")
    }

    @Test("an unknown TZ warns, naming the zone, and still runs (as UTC)")
    func invalidZone() async throws {
        let r = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null"], environment: ["TZ": "Invalid/Zone"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr.contains("Invalid/Zone"), "\(r)")
        #expect(r.stderr.lowercased().contains("warning"), "\(r)")
        let report = try DryRunReport(r.stdout)
        #expect(report.offsetText == "+00:00", "\(report)")
    }

    @Test("+90m waits 5400 s")
    func ninetyMinutes() async throws {
        let r = try await WakeProcess.run(["+90m", "--dry-run", "-D", "null"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdoutLines.contains { $0.hasPrefix("wait: 5400 s (") }, "\(r)")
        let report = try DryRunReport(r.stdout)
        #expect(report.waitHuman == "1h 30m 0s", "\(report)")
    }

    @Test("a date-time in the past is refused with 64")
    func pastDateTime() async throws {
        let r = try await WakeProcess.run(["2020-01-01T07:00", "--dry-run", "-D", "null"])
        #expect(r.exitCode == 64, "\(r)")
        #expect(r.stdout == "", "\(r)")
        #expect(r.stderrIsOneLine, "\(r)")
        #expect(r.stderr.contains("'2020-01-01T07:00'"), "\(r)")
    }
}
