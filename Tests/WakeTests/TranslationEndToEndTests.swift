import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 55: the binary speaks the reader's language through GNU gettext, from catalogues the real
/// msgfmt compiles from po/ (as `make` does), while what scripts read (exit codes, `--json`,
/// `--events`) stays as it is in English. What is marked, and the template, are checked in process
/// (WakeCoreTests/TranslationTemplateTests); the installed binary's own lookup in InstallTests.
@Suite("Translations end to end", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt"), "needs gettext's msgfmt"))
struct TranslationEndToEndTests {
    /// po/LANG.po compiled into DIR/LANG/LC_MESSAGES/wake.mo, and the environment that reads them in `language`.
    static func catalogues(in dir: TestDirectory) async throws -> String {
        let root = dir.file("locale")
        for language in ["de", "fr"] {
            let out = root + "/\(language)/LC_MESSAGES"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let r = try await ChildProcess("/usr/bin/msgfmt", ["--check", "-o", out + "/wake.mo",
                                                               packageRoot + "/po/\(language).po"]).wait()
            #expect(r.exitCode == 0, "msgfmt \(language).po: \(r)")
        }
        return root
    }

    static func speaking(_ language: String, _ catalogues: String) -> [String: String] {
        ["WAKE_LOCALEDIR": catalogues, "LANG": "C.UTF-8", "LANGUAGE": language]
    }

    @Test("LANGUAGE=de and LC_ALL=fr_FR: the dry run and a refused time in the language, with English's exit codes")
    func dryRunAndRefusal() async throws {
        let dir = try TestDirectory()
        let locale = try await Self.catalogues(in: dir)
        let german = try await WakeProcess.run(["07:00", "-D", "null", "--dry-run", "--inhibit", "off", "--notify", "off"],
                                               environment: Self.speaking("de", locale).merging(["TZ": "UTC"]) { $1 })
        #expect(german.exitCode == 0, "\(german)")
        for line in ["Weckzeit: ", "Zeitzone: UTC", "Wartezeit: ", "Klang: (built-in alarm)", "Lautstärke: 100 %", "Schlummern: 9m"] {
            #expect(german.stdoutLines.contains { $0.hasPrefix(line) }, "\(line): \(german.stdout)")
        }
        let french = ["WAKE_LOCALEDIR": locale, "LC_ALL": "fr_FR.UTF-8", "TZ": "UTC"]
        let dry = try await WakeProcess.run(["07:00", "-D", "null", "--dry-run", "--inhibit", "off", "--notify", "off"],
                                            environment: french)
        #expect(dry.exitCode == 0 && dry.stdoutLines.first?.hasPrefix("heure du réveil : ") == true, "\(dry)")
        let refused = try await WakeProcess.run(["7:99"], environment: french)
        #expect(refused.exitCode == 64, "\(refused)")
        #expect(refused.stderr.hasPrefix("wake: heure non valide '7:99' : les minutes doivent être comprises entre 00 et 59 ; "
                                         + "formes acceptées : 07:00,"), "\(refused)")
        // The C locale stays English even with LANGUAGE, as glibc wants it.
        let plain = try await WakeProcess.run(["7:99"], environment: ["WAKE_LOCALEDIR": locale, "LANG": "C", "LC_MESSAGES": "C",
                                                                      "LANGUAGE": "de"])
        #expect(plain.stderr.hasPrefix("wake: invalid time '7:99'"), "\(plain)")
    }

    @Test("a ring in German: its lines, and its notification's summary, body and buttons; the hints and the exit code as in English",
          .enabled(if: NotificationMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
    func ringAndNotification() async throws {
        let dir = try TestDirectory()
        let locale = try await Self.catalogues(in: dir)
        try await NotificationMock.with { mock in
            let env = mock.environment.merging(Self.speaking("de", locale)) { $1 }.merging(["TZ": "UTC"]) { $1 }
            let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "2s", "--snooze", "7m", "--inhibit", "off"], environment: env)
            _ = try await wake.waitForEvent("ringing")
            let n = try await mock.waitForNotify()
            #expect(n.summary.hasPrefix("Wecker "), "\(n)")
            #expect(n.body.hasPrefix("Klingelt seit "), "\(n)")
            #expect(n.actions == ["snooze", "Schlummern 7 min", "snooze-long", "Schlummern 14 min", "stop", "Aus"], "\(n)")
            #expect(n.hints["desktop-entry"] == "wake" && n.hints["suppress-sound"] == "true" && n.appIcon == "alarm-clock", "\(n)")
            let r = await wake.wait()
            #expect(r.exitCode == 4, "unanswered for --ring-for: \(wake.report(r))")
            #expect(r.stdoutLines.contains { $0.hasPrefix("ES KLINGELT: Wecker für ") }, "\(r.stdout)")
            #expect(r.stdoutLines.contains("klingelte 2s, ohne beendet zu werden"), "\(r.stdout)")
            // The event stream a script reads has the same events and fields as in English.
            #expect(wake.events.map(\.name).contains("ringing") && !wake.eventLogText.contains("klingel"), "\(wake.eventLogText)")
        }
    }

    @Test("wake list and next in German and French; list --json and next --json the same bytes as in English")
    func listAndNext() async throws {
        let home = try AlarmHome()
        let locale = try await Self.catalogues(in: home.dir)
        #expect(try await home.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null"]).exitCode == 0)
        func run(_ args: [String], _ extra: [String: String]) async throws -> ProcessResult {
            try await WakeProcess.run(args, environment: home.environment.merging(extra) { $1 })
        }
        let german = try await run(["list"], Self.speaking("de", locale))
        #expect(german.exitCode == 0 && german.stdoutLines.count == 2, "\(german)")
        #expect(german.stdout.contains(" wartet "), "\(german.stdout)")
        #expect(german.stderr.contains("Hinweis: kein Daemon läuft, also klingeln die ständigen Wecker nicht"), "\(german.stderr)")
        let next = try await run(["next"], Self.speaking("fr", locale))
        #expect(next.exitCode == 0 && next.stdout.contains(" (work), dans "), "\(next)")
        for args in [["list", "--json"], ["next", "--json"]] {
            let english = try await run(args, [:])
            for language in ["de", "fr"] {
                let other = try await run(args, Self.speaking(language, locale))
                // The wait in next's `in_s` may tick between the two runs; nothing else may differ.
                func steady(_ s: String) -> String { s.replacing(/"in_s":\d+/, with: "\"in_s\":0").replacing(/in \d+h \d+m/, with: "in") }
                #expect(other.exitCode == english.exitCode && steady(other.stdout) == steady(english.stdout),
                        "\(args) in \(language):\n\(other.stdout)\nin English:\n\(english.stdout)")
            }
        }
    }
}
