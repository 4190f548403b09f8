import Foundation
import Testing
import WakeCore

/// `wake doctor`'s report as a value (issue 39): the worst status and the exit status it maps
/// to, the text a user reads (one line per check, the fix under it, a closing count), the JSON
/// scripts read (parsed back with Foundation, one object per check), and the ring times.
@Suite("Doctor report")
struct DoctorReportTests {
    static let pass = DoctorFinding(.files, "files.config", .pass, "config.toml is well formed (1 setting)")
    static let warn = DoctorFinding(.sound, "sound.sink", alarms: ["work"], .warn, "the default sink 'Speaker' (speaker) is muted (60 %)",
                                    fix: "nothing is needed for the alarm")
    static let fail = DoctorFinding(.daemon, "daemon.running", .fail, "no wake daemon is running: the 1 standing alarm will not ring",
                                    fix: "systemctl --user enable --now wake (or run 'wake daemon')")

    @Test("the worst status decides: none or all PASS is 0, a WARN 1, a FAIL 2 whatever comes after it")
    func worst() {
        #expect(DoctorReport([]).worst == .pass)
        #expect(DoctorReport([Self.pass, Self.pass]).worst == .pass)
        #expect(DoctorReport([Self.pass, Self.warn]).worst == .warn)
        #expect(DoctorReport([Self.fail, Self.warn, Self.pass]).worst == .fail)
        #expect(DoctorReport([Self.warn, Self.fail]).worst.rawValue == 2)
        #expect(DoctorFinding.Status.allCases.map(\.rawValue) == [0, 1, 2], "the exit status is the status's number")
        #expect(DoctorFinding.Status.allCases.map(\.word) == ["PASS", "WARN", "FAIL"])
    }

    @Test("text: one line per check in the areas' order, the alarm named, the fix on the line under it, then the count")
    func text() {
        let lines = DoctorReport([Self.warn, Self.fail, Self.pass]).lines()
        #expect(lines.count == 6, "\(lines)")
        // files, then daemon, then sound, whatever order they were found in.
        #expect(lines[0] == "PASS  files         config.toml is well formed (1 setting)", "\(lines)")
        #expect(lines[1] == "FAIL  daemon        no wake daemon is running: the 1 standing alarm will not ring", "\(lines)")
        #expect(lines[2] == String(repeating: " ", count: 20) + "fix: systemctl --user enable --now wake (or run 'wake daemon')", "\(lines)")
        #expect(lines[3] == "WARN  sound         work: the default sink 'Speaker' (speaker) is muted (60 %)", "\(lines)")
        #expect(lines[4].trimmingCharacters(in: .whitespaces) == "fix: nothing is needed for the alarm", "\(lines)")
        #expect(lines[5] == "3 checks: 1 passed, 1 warned, 1 failed; an alarm may not be heard: see the failures", "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("PASS") && $0.contains("fix:") }, "a check without a fix has no fix line")
        #expect(DoctorReport([Self.pass]).lines().last == "1 checks: 1 passed, 0 warned, 0 failed; the alarms will be heard as far as wake can tell")
        #expect(DoctorReport([Self.pass, Self.warn]).lines().last?.hasSuffix("the alarms ring, but see the warnings") == true)
        let hook = DoctorFinding(.hooks, "hooks.file", .fail, "hook '/h/60-open' can be written by others (mode 775), so it is not run")
        let hookOnly = DoctorReport([Self.warn, hook]).lines().last ?? ""
        #expect(hookOnly.hasSuffix("the alarms ring, but a hook will not run: see the failures"), "\(hookOnly)")
        #expect(DoctorReport([Self.fail, hook]).lines().last?.hasSuffix("an alarm may not be heard: see the failures") == true)
    }

    @Test("JSON: an array with one object per check, every field there, fix null when there is none; it parses back")
    func json() throws {
        let report = DoctorReport([Self.pass, Self.warn, Self.fail])
        let text = report.json().joined(separator: "\n")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
        #expect(parsed.count == 3)
        for object in parsed {
            #expect(Set(object.keys) == ["area", "check", "alarms", "status", "found", "fix"], "\(object)")
        }
        #expect(parsed.map { $0["check"] as? String } == ["files.config", "daemon.running", "sound.sink"], "in the areas' order")
        #expect(parsed.map { $0["status"] as? String } == ["PASS", "FAIL", "WARN"])
        #expect(parsed[0]["fix"] is NSNull, "\(parsed[0])")
        #expect(parsed[0]["alarms"] as? [String] == [])
        #expect(parsed[2]["alarms"] as? [String] == ["work"])
        #expect(parsed[2]["area"] as? String == "sound")
        #expect(parsed[1]["fix"] as? String == Self.fail.fix)
        #expect(parsed[2]["found"] as? String == Self.warn.found)
        #expect(report.json().count == 3, "an object a line")
        #expect(DoctorReport([]).json() == ["[]"])
        let one = try JSONSerialization.jsonObject(with: Data(DoctorReport([Self.pass]).json().joined().utf8)) as? [[String: Any]]
        #expect(one?.count == 1)
    }

    @Test("a name with a control character: escaped on the terminal, exact in the JSON")
    func escaping() throws {
        let name = "work\u{1b}[2J\u{1}"
        let finding = DoctorFinding(.time, "time.next", alarms: [name], .pass, "next 06:30 UTC tomorrow")
        let lines = DoctorReport([finding]).lines()
        #expect(!lines[0].unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f }, "\(lines)")
        #expect(lines[0].contains("work\\x1b[2J\\x01: next 06:30 UTC tomorrow"), "\(lines)")
        let text = DoctorReport([finding]).json().joined()
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 }, "no raw control character in the JSON: \(text)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(parsed.first?["alarms"] as? [String] == [name], "the name comes back exactly: \(text)")
    }

    // MARK: ring times

    /// Daily at 06:30, from Friday 2026-10-23 22:00 CEST: Saturday in summer time, Sunday (the
    /// clocks went back at 03:00 that night) and Monday in winter time.
    @Test("three ring times across the end of summer time in Europe/Berlin: local time with the zone's abbreviation, and UTC")
    func acrossDaylightSaving() throws {
        let berlin = try zone("Europe/Berlin")
        let alarm = StandingAlarm(name: "daily", hour: 6, minute: 30, second: 0, days: DaySet.daily.bits, date: nil, options: [:],
                                  created: utc(2026, 10, 1))
        let now = utc(2026, 10, 23, 20)
        let first = try #require(StandingSchedule.occurrence(of: alarm, after: now, zone: berlin)?.instant)
        let times = RingTimes.upcoming(alarm, first: first, count: 3, zone: berlin)
        #expect(times == [utc(2026, 10, 24, 4, 30), utc(2026, 10, 25, 5, 30), utc(2026, 10, 26, 5, 30)])
        #expect(times.map { RingTimes.phrase($0, now: now, zone: berlin) } == [
            "06:30 CEST tomorrow (04:30 UTC)", "06:30 CET Sun 25 Oct (05:30 UTC)", "06:30 CET Mon 26 Oct (05:30 UTC)",
        ])
        #expect(RingTimes.upcoming(alarm, first: nil, count: 3, zone: berlin).isEmpty, "an alarm that rings no more has none")
        #expect(RingTimes.upcoming(alarm, first: first, count: 1, zone: berlin) == [first])
    }

    @Test("in UTC itself the UTC part is left out; a one-off on a date has one ring time")
    func utcAndOneOff() throws {
        let now = utc(2026, 11, 23, 23)
        let alarm = StandingAlarm(name: "once", hour: 7, minute: 0, second: 0, days: 0, date: CivilDate(year: 2026, month: 11, day: 25),
                                  options: [:], created: utc(2026, 11, 1))
        let first = try #require(StandingSchedule.occurrence(of: alarm, after: now, zone: .utc)?.instant)
        let times = RingTimes.upcoming(alarm, first: first, count: 3, zone: .utc)
        #expect(times == [utc(2026, 11, 25, 7)])
        #expect(RingTimes.phrase(times[0], now: now, zone: .utc) == "07:00 UTC Wed 25 Nov")
        let etc = try zone("Etc/UTC")
        #expect(RingTimes.phrase(utc(2026, 11, 24, 6, 30), now: now, zone: etc) == "06:30 UTC tomorrow")
        // A zone at UTC's offset but not UTC still says UTC: the abbreviation alone is not the same clock.
        let london = try zone("Europe/London")
        #expect(RingTimes.phrase(utc(2026, 11, 24, 6, 30), now: now, zone: london) == "06:30 GMT tomorrow (06:30 UTC)")
    }
}
