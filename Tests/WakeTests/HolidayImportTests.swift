import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeTestSupport

enum PythonHolidays {
    /// Always true under CI: `make test` installs it, so a missing package must fail there, not skip.
    static var isInstalled: Bool {
        ProcessInfo.processInfo.environment["CI"] != nil
            || (access("/usr/bin/python3", X_OK) == 0 && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/holidays/__init__.py"))
    }
}

/// `wake holidays import` and `list` end to end, with Debian's real python3-holidays (`make
/// test` installs it): the file it writes is one `HolidayCalendar` reads, with the right days and
/// names; and every way it can fail exits with its code and one line.
@Suite("wake holidays import", .enabled(if: PythonHolidays.isInstalled, "needs python3-holidays (apt-get install python3-holidays)"))
struct HolidayImportTests {

    static var thisYear: Int {
        var t = time(nil)
        var parts = tm()
        gmtime_r(&t, &parts)
        return Int(parts.tm_year) + 1900
    }

    static func read(_ path: String) throws -> String {
        guard let d = FileManager.default.contents(atPath: path) else { throw WakeTestError("cannot read \(path)") }
        return String(decoding: d, as: UTF8.self)
    }

    @Test("DE-BY: the file under XDG_CONFIG_HOME reads back with its days and names, and the line says how to use it")
    func importsBavaria() async throws {
        let home = try AlarmHome()
        let r = try await home.run(["holidays", "import", "DE-BY"])
        #expect(r.exitCode == 0 && r.stderr.isEmpty, "\(r)")
        let path = home.dir.file("config") + "/wake/holidays-de-by.ics"
        let y = Self.thisYear
        // 13 public holidays a year in Bavaria, for this year and the next two.
        #expect(r.stdout.contains("wrote 39 holidays (\(y)-\(y + 2)) of DE-BY to \(path)"), "\(r)")
        #expect(r.stdout.contains("--skip-days \(path)'"), "\(r)")
        #expect(r.stdoutLines.filter { !$0.isEmpty }.count == 2, "\(r)")

        let text = try Self.read(path)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "CRLF line ends only")
        let calendar = try HolidayCalendar.parse(text, zone: .utc)
        #expect(calendar.events.count == 39)
        #expect(calendar.event(on: CivilDate(year: y, month: 12, day: 25))?.summary == "Erster Weihnachtstag")
        #expect(calendar.event(on: CivilDate(year: y + 2, month: 8, day: 15))?.summary == "Mariä Himmelfahrt", "Bavaria's own, in UTF-8")
        #expect(calendar.event(on: CivilDate(year: y, month: 12, day: 24)) == nil)
        #expect(calendar.event(on: CivilDate(year: y + 3, month: 1, day: 1)) == nil, "three years only")

        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o644)
        #expect(stat(home.dir.file("config") + "/wake", &st) == 0 && st.st_mode & 0o777 == 0o700, "wake's directory, as for the alarms")

        // Again, with --years: the file is replaced.
        let again = try await home.run(["holidays", "import", "de-by", "--years", "1"])
        #expect(again.exitCode == 0 && again.stdout.contains("wrote 13 holidays (\(y)) of DE-BY"), "\(again)")
        #expect(try HolidayCalendar.parse(try Self.read(path), zone: .utc).events.count == 13)
    }

    @Test("-o -: the calendar on stdout, the line on stderr; -o FILE where asked; a state of the US")
    func writesToStdoutAndToAGivenFile() async throws {
        let home = try AlarmHome()
        let r = try await home.run(["holidays", "import", "US-CA", "-o", "-", "--years", "2"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdout.hasPrefix("BEGIN:VCALENDAR\r\n") && r.stdout.hasSuffix("END:VCALENDAR\r\n"), "\(r)")
        let calendar = try HolidayCalendar.parse(r.stdout, zone: .utc)
        #expect(calendar.event(on: CivilDate(year: Self.thisYear + 1, month: 7, day: 4))?.summary.contains("Independence Day") == true)
        #expect(r.stderr.contains("of US-CA to standard output") && r.stderrIsOneLine, "\(r)")
        #expect(!FileManager.default.fileExists(atPath: home.dir.file("config") + "/wake"), "nothing written under the config home")

        let file = home.dir.file("my holidays.ics")
        let f = try await home.run(["holidays", "import", "AT", "--output", file])
        #expect(f.exitCode == 0 && f.stdout.contains("to \(file)") && f.stdout.contains("--skip-days '\(file)'"), "quoted for a shell: \(f)")
        #expect(try HolidayCalendar.parse(try Self.read(file), zone: .utc).events.count > 20)
    }

    @Test("An unknown or malformed country or region, or none, exits 64 with one line saying what to do")
    func unknownPlacesAreUsageErrors() async throws {
        let home = try AlarmHome()
        let country = try await home.run(["holidays", "import", "XQ"])
        #expect(country.exitCode == 64 && country.stderrIsOneLine, "\(country)")
        #expect(country.stderr.contains("'XQ'") && country.stderr.contains("wake holidays list"), "\(country)")

        let region = try await home.run(["holidays", "import", "DE-XX"])
        #expect(region.exitCode == 64 && region.stderrIsOneLine, "\(region)")
        #expect(region.stderr.contains("'XX' of DE") && region.stderr.contains("BY"), "it names the regions: \(region)")

        let noRegions = try await home.run(["holidays", "import", "AR-X"])
        #expect(noRegions.exitCode == 64 && noRegions.stderr.contains("import 'AR' alone"), "\(noRegions)")

        for bad in [["D3"], ["DE-BY;rm"], ["\u{1B}[2J"], ["DE", "--years", "0"], ["DE", "--years", "-3"], ["DE", "-o", "a", "-o", "b"], [], ["DE", "extra"]] {
            let r = try await home.run(["holidays", "import"] + bad)
            #expect(r.exitCode == 64 && r.stderrIsOneLine && !r.stderr.contains("\u{1B}"), "\(bad): \(r)")
        }
        for bad in [[], ["bogus"]] {
            let r = try await home.run(["holidays"] + bad)
            #expect(r.exitCode == 64 && r.stderrIsOneLine && r.stderr.contains("import"), "\(bad): \(r)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.dir.file("config") + "/wake"), "nothing written")
    }

    /// WAKE_TEST_PYTHON (debug builds) points wake at another interpreter: Debian's own without
    /// its site directory (`-S`), where no apt-installed module is, or one that does not exist.
    @Test("Without python3-holidays (or without Python) it exits 69, saying to install it or to export a calendar")
    func withoutTheModuleItIsUnavailable() async throws {
        let home = try AlarmHome()
        let bare = try home.dir.write("python-without-holidays", Array("#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n".utf8), mode: 0o755)
        for python in [bare, home.dir.file("no-such-python")] {
            for args in [["holidays", "import", "DE-BY"], ["holidays", "list"]] {
                var env = home.environment
                env["WAKE_TEST_PYTHON"] = python
                let r = try await WakeProcess.run(args, environment: env)
                #expect(r.exitCode == 69 && r.stderrIsOneLine, "\(python) \(args): \(r)")
                #expect(r.stderr.contains("apt install python3-holidays") && r.stderr.contains(".ics"), "\(r)")
                #expect(r.stdout.isEmpty, "\(r)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: home.dir.file("config") + "/wake"), "nothing written")
    }

    @Test("wake holidays list: the codes, with the regions import takes")
    func listsTheCountries() async throws {
        let r = try await WakeProcess.run(["holidays", "list"])
        #expect(r.exitCode == 0, "\(r)")
        let germany = try #require(r.stdoutLines.first(where: { $0.hasPrefix("DE ") }), "\(r)")
        #expect(germany.contains("Germany") && germany.contains(" BY ") && germany.contains("NW"), "\(germany)")
        #expect(r.stdoutLines.contains { $0.hasPrefix("US ") && $0.contains(" CA ") }, "\(r)")
        #expect(r.stdoutLines.count > 40)
    }
}
