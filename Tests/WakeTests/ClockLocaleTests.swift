import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 55's reader's clock from a real locale (`make test` generates en_US, en_GB, de_DE and
/// fr_FR): the binary reads LC_TIME's formats itself, 12-hour and month first under en_US, 24-hour
/// and day first under the others, config.toml's `clock` over the hours; what scripts read
/// (`--json`) is the same under every locale.
@Suite("The reader's clock from the locale", .enabled(if: TestLocales.generated, "needs the locales make test generates"))
struct ClockLocaleTests {
    @Test("add and next in each locale's clock, list and next --json alike", arguments: [
        ("en_US", nil, "6:30 PM on 2028-06-15; next 6:30 PM Thu, Jun 15, 2028, in "),
        ("en_GB", nil, "18:30 on 2028-06-15; next 18:30 Thu 15 Jun 2028, in "),
        ("de_DE", nil, "18:30 on 2028-06-15; next 18:30 Thu 15 Jun 2028, in "),
        ("fr_FR", nil, "18:30 on 2028-06-15; next 18:30 Thu 15 Jun 2028, in "),
        ("en_US", "24h", "18:30 on 2028-06-15; next 18:30 Thu, Jun 15, 2028, in "),
    ] as [(String, String?, String)])
    func clockOfTheLocale(locale: String, clock: String?, says: String) async throws {
        let home = try AlarmHome()
        if let clock { try home.writeConfigFile("clock = \"\(clock)\"\n", name: "config.toml") }
        func run(_ args: [String]) async throws -> ProcessResult {
            try await WakeProcess.run(args, environment: home.environment.merging(["LC_ALL": locale + ".UTF-8"]) { $1 })
        }
        var r = try await run(["add", "2028-06-15T18:30", "--name", "trip", "-D", "null"])
        #expect(r.exitCode == 0 && r.stdout.contains("added 'trip': " + says), "\(r)")
        r = try await run(["list", "--json"])
        #expect(r.stdout.contains("\"time\":\"18:30:00\""), "\(r)")
        r = try await run(["next", "--json"])
        #expect(r.stdout.contains("\"time\":\"18:30\"") && r.stdout.contains("\"next\":\"2028-06-15T18:30:00+00:00\""), "\(r)")
    }

    @Test("GNOME's clock-format = '12h' (dconf, as GNOME's Settings writes it) over de_DE's 24-hour clock",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dconf"), "needs dconf-cli"))
    func desktopClockFormat() async throws {
        let home = try AlarmHome()
        let keys = home.dir.file("keys")
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        try "[org/gnome/desktop/interface]\nclock-format='12h'\n".write(toFile: keys + "/00", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: home.dir.file("config/dconf"), withIntermediateDirectories: true)
        let c = try await ChildProcess("/usr/bin/dconf", ["compile", home.dir.file("config/dconf/user"), keys]).wait()
        #expect(c.exitCode == 0, "\(c)")
        let r = try await WakeProcess.run(["add", "2028-06-15T18:30", "--name", "trip", "-D", "null"],
                                          environment: home.environment.merging(["LC_ALL": "de_DE.UTF-8"]) { $1 })
        #expect(r.exitCode == 0 && r.stdout.contains("added 'trip': 6:30 PM on 2028-06-15; next 6:30 PM Thu 15 Jun 2028, in "), "\(r)")
    }
}

/// The locales the Makefile generates for the tests (`TEST_LOCALES`).
enum TestLocales {
    static let locales = ["en_US", "en_GB", "de_DE", "fr_FR"]
    static var generated: Bool {
        locales.allSatisfy { name in
            guard let l = newlocale(LC_TIME_MASK, name + ".UTF-8", nil) else { return false }
            freelocale(l)
            return true
        }
    }
}
