import Foundation
import Testing
import WakeCore

/// `Recurrence` against an oracle nobody here wrote: Python's `zoneinfo` over the system's tz
/// database (PEP 495: `fold=0` is a repeated reading's first occurrence). For a reading in a
/// spring-forward gap Python gives an instant that does not read as asked; the rule "the first
/// instant after the gap" is then the first second whose reading passes it, found by bisection
/// between Python's two answers (`fold=0` and `fold=1` straddle the jump).
@Suite("Recurrence against Python zoneinfo")
struct RecurrenceOracleTests {
    static let python = "/usr/bin/python3"
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe"]
    /// Berlin's gap and repeat are both 02:00-03:00, New York's gap 02:00-03:00 and repeat
    /// 01:00-02:00, Lord Howe's gap 02:00-02:30 and repeat 01:30-02:00.
    static let times = ["01:30:00", "01:45:00", "02:00:00", "02:15:00", "02:30:00", "06:30:00"]

    /// Prints, for every date in the range, one line: zone, time, date, weekday (0 = Sunday),
    /// the instant (Unix seconds) the rules ring at, and 1 when a gap moved it. A date the clocks
    /// never read prints "-" as its instant.
    static let script = #"""
import sys, datetime as dt, zoneinfo
first, last = dt.date.fromisoformat(sys.argv[1]), dt.date.fromisoformat(sys.argv[2])
zones, times = sys.argv[3].split(","), sys.argv[4].split(",")

def reading(t, z):
    return dt.datetime.fromtimestamp(t, z).replace(tzinfo=None)

def ring(naive, z):
    t0 = int(naive.replace(tzinfo=z, fold=0).timestamp())
    if reading(t0, z) == naive:
        return t0, 0
    t1 = int(naive.replace(tzinfo=z, fold=1).timestamp())
    lo, hi = min(t0, t1), max(t0, t1)
    while lo < hi:
        mid = (lo + hi) // 2
        if reading(mid, z) > naive: hi = mid
        else: lo = mid + 1
    return lo, 1

for name in zones:
    z = zoneinfo.ZoneInfo(name)
    for hms in times:
        h, m, s = map(int, hms.split(":"))
        d = first
        while d <= last:
            midnight, _ = ring(dt.datetime(d.year, d.month, d.day), z)
            if reading(midnight, z).date() != d:
                print(name, hms, d.isoformat(), (d.weekday() + 1) % 7, "-", 0)
            else:
                t, shifted = ring(dt.datetime(d.year, d.month, d.day, h, m, s), z)
                print(name, hms, d.isoformat(), (d.weekday() + 1) % 7, t, shifted)
            d += dt.timedelta(days=1)
"""#

    struct Expected {
        var date: CivilDate
        var weekday: Int
        var seconds: Int64?
        var shifted: Bool
    }

    /// Runs the script and groups its lines by "zone time".
    static func oracle() throws -> [String: [Expected]] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = ["-c", script, "2025-12-27", "2028-01-04", zones.joined(separator: ","), times.joined(separator: ",")]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "python: \(String(decoding: errors, as: UTF8.self))")
        var result: [String: [Expected]] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let f = line.split(separator: " ").map(String.init)
            guard f.count == 6 else { Issue.record("bad oracle line: \(line)"); continue }
            let ymd = f[2].split(separator: "-").compactMap { Int($0) }
            guard ymd.count == 3, let weekday = Int(f[3]) else { Issue.record("bad oracle line: \(line)"); continue }
            let e = Expected(date: CivilDate(year: ymd[0], month: ymd[1], day: ymd[2]), weekday: weekday,
                             seconds: Int64(f[4]), shifted: f[5] == "1")
            result["\(f[0]) \(f[1])", default: []].append(e)
        }
        return result
    }

    @Test("2026-2027, daily and weekdays: every occurrence where zoneinfo puts it",
          .enabled(if: FileManager.default.isExecutableFile(atPath: python), "needs \(python)"))
    func agreesWithZoneinfo() throws {
        let oracle = try Self.oracle()
        let from = utc(2025, 12, 31, 12), through = utc(2028, 1, 1)
        var checked = 0, shifted = 0
        for name in Self.zones {
            let z = try zone(name)
            for time in Self.times {
                let hms = time.split(separator: ":").compactMap { Int($0) }
                try #require(hms.count == 3)
                let lines = try #require(oracle["\(name) \(time)"], "no oracle lines for \(name) \(time)")
                #expect(lines.count == 739)
                for days in [DaySet.daily, .weekdays] {
                    // Python's weekday, not ours, selects the dates.
                    let expected = lines.filter { days.contains($0.weekday) }
                        .compactMap { e -> (Int64, LocalDateTime?)? in
                            guard let s = e.seconds, s > from.seconds, s <= through.seconds else { return nil }
                            return (s, e.shifted ? LocalDateTime(date: e.date, hour: hms[0], minute: hms[1], second: hms[2]) : nil)
                        }
                        .sorted { $0.0 < $1.0 }
                    let got = Recurrence.occurrences(from: from, through: through, hour: hms[0], minute: hms[1], second: hms[2],
                                                     days: days, zone: z)
                    let label = "\(name) \(time) \(days.canonical)"
                    #expect(got.map(\.instant.seconds) == expected.map(\.0), "\(label)")
                    #expect(got.map(\.shiftedFrom) == expected.map(\.1), "\(label)")
                    #expect(got.allSatisfy { $0.clock == .wall && $0.span == nil })
                    checked += got.count
                    shifted += got.filter { $0.shiftedFrom != nil }.count
                }
            }
        }
        // The comparison covered the gaps, each spring: 02:00, 02:15 and 02:30 in Berlin and New York,
        // 02:00 and 02:15 in Lord Howe, on the daily walks; none on the weekday walks (gaps fall on Sundays).
        #expect(shifted == 2 * (3 + 3 + 2))
        #expect(checked > 15_000)
    }
}
