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

    @Test("a timer's row in German, paused or running; list --json keeps its English state")
    func timerRow() throws {
        var world = try TestWorld()
        world.messages = .table(["{span} timer, {left} left": "Timer {span}, noch {left}",
                                 "paused, {span} timer, {left} left": "pausiert, Timer {span}, noch {left}"])
        #expect(world.run(["timer", "4m", "tea", "-D", "null"]).code == 0)
        var r = world.run(["list"])
        #expect(r.out.contains { $0.contains("Timer 4m, noch 4m") }, "\(r)")
        #expect(world.run(["pause", "tea"]).code == 0)
        r = world.run(["list"])
        #expect(r.out.contains { $0.contains("pausiert, Timer 4m, noch 4m") }, "\(r)")
        #expect(try world.listJSON().first?["state"] as? String == "paused, 4m timer, 4m left")
    }

    @Test("a doctor finding and its fix in German; doctor --json keeps them English")
    func doctorFinding() throws {
        var world = try TestWorld()
        world.messages = .table([
            "alarms {others} and {last} ring at the same moments: skipping or pausing one leaves the other ringing":
                "die Wecker {others} und {last} klingeln zu denselben Zeitpunkten",
            "{command} (or keep them on purpose: each must then be skipped)": "{command} (oder beide mit Absicht behalten)",
            "fix: {fix}": "Abhilfe: {fix}",
        ])
        #expect(world.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null"]).code == 0)
        #expect(world.run(["add", "06:30", "--days", "weekdays", "--name", "work-too", "-D", "null", "--force"]).code == 0)
        var r = world.run(["doctor", "work"])
        #expect(r.out.contains { $0.hasSuffix("die Wecker 'work' und 'work-too' klingeln zu denselben Zeitpunkten") }, "\(r)")
        #expect(r.out.contains { $0.hasSuffix("Abhilfe: wake remove work-too (oder beide mit Absicht behalten)") }, "\(r)")
        r = world.run(["doctor", "--json", "work"])
        #expect(r.stdout.contains("\"found\":\"alarms 'work' and 'work-too' ring at the same moments: skipping or pausing one"), "\(r)")
        #expect(!r.stdout.contains("Wecker"), "\(r)")
    }

    @Test("the dry run's option rows in German: a label with its value, and a row of prose; the option's value stays")
    func dryRunRows() throws {
        var world = try TestWorld()
        world.messages = .table([
            "snooze long: {span}": "langes Schlummern: {span}",
            " (twice the snooze, at most 12h)": " (doppeltes Schlummern, höchstens 12h)",
            "check up: none": "Nachfrage: keine",
            "escalate: {rule}": "Steigerung: {rule}",
        ])
        let r = world.run(["07:00", "--dry-run", "-D", "null", "--snooze", "5m"])
        #expect(r.code == 0, "\(r)")
        #expect(r.out.contains("langes Schlummern: 10m (doppeltes Schlummern, höchstens 12h)"), "\(r)")
        #expect(r.out.contains("Nachfrage: keine"), "\(r)")
        #expect(r.out.contains("Steigerung: off"), "the value stays as the option takes it: \(r)")
    }
}
