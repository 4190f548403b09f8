import Testing
@testable import WakeCommandLine
@testable import WakeCore

/// Issue 55, in process: a bound catalogue reaches what a command says, the parser's own usage
/// errors included, while `--json` keeps English (the catalogue is a table here; gettext's own
/// lookup runs end to end, TranslationEndToEndTests).
@Suite("Commands in the reader's language")
struct TranslatedCommandTests {
    static let german = MessageCatalogue.table([
        "Unknown option '{option}'. Did you mean '{suggestion}'?": "Unbekannte Option '{option}'. Meinten Sie '{suggestion}'?",
        "Unknown option '{option}'": "Unbekannte Option '{option}'",
        "{problem}; see '{help}'": "{problem}; siehe '{help}'",
        "waiting": "wartet", "Tue": "Di", "tomorrow": "morgen", "in {span}": "in {span}",
    ])

    @Test("the parser's unknown option, with and without a suggestion, and a list's state; list --json stays English")
    func parserAndList() throws {
        var world = try TestWorld()
        world.messages = Self.german
        var r = world.run(["07:00", "--snoze", "2m"])
        #expect(r.code == 64 && r.err == ["wake: Unbekannte Option '--snoze'. Meinten Sie '--snooze'?; siehe 'wake --help'"], "\(r)")
        r = world.run(["07:00", "--zzzz"])
        #expect(r.code == 64 && r.err == ["wake: Unbekannte Option '--zzzz'; siehe 'wake --help'"], "\(r)")
        #expect(world.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null"]).code == 0)
        r = world.run(["list"])
        #expect(r.out.contains { $0.contains(" wartet") }, "\(r)")
        #expect(try world.listJSON().first?["state"] as? String == "waiting")
    }
}
