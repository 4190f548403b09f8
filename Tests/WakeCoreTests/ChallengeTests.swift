import Testing
import WakeCore

/// `--challenge math` in the core: the sum, the answer being typed, and the engine's rule of who
/// may end a challenged alarm.
@Suite("Challenge: the sum, the entry and the engine's rule by requester")
struct ChallengeTests {
    typealias T = AlarmEngineTests

    static let challenged = AlarmEngine.Settings(lateLimit: .seconds(30 * 60), snooze: .seconds(9 * 60), ringFor: .seconds(10 * 60),
                                                  challenge: true)

    // MARK: MathChallenge

    @Test("two numbers from 10 to 99 drawn from the generator handed in: the same seed, the same sums; the question and its answer")
    func drawsSums() {
        var a = PropertyRNG(seed: 42)
        var b = PropertyRNG(seed: 42)
        var seen = Set<Int>()
        for _ in 0..<2000 {
            let c = MathChallenge(using: &a)
            #expect(c == MathChallenge(using: &b))
            #expect(MathChallenge.terms.contains(c.first) && MathChallenge.terms.contains(c.second), "\(c)")
            #expect(c.answer == c.first + c.second)
            #expect(c.question == "\(c.first) + \(c.second)")
            seen.insert(c.answer)
        }
        // The answers spread over the range: not one sum asked again and again.
        #expect(seen.count > 150 && seen.min() ?? 0 >= 20 && seen.max() ?? 0 <= 198, "\(seen.count) answers")
    }

    @Test("the answer as typed: the sum, leading zeros allowed; anything else is wrong, never a trap on a long entry")
    func checksAnswers() {
        let c = MathChallenge(first: 37, second: 48)
        #expect(c.question == "37 + 48")
        #expect(c.isAnswered(by: "85") && c.isAnswered(by: "085") && c.isAnswered(by: "0000000000000000085"))
        for wrong in ["84", "", "8", "850", "8 5", "x", "-85", "+85", "99999999999999999999999999999", "8500000000000000000000"] {
            #expect(!c.isAnswered(by: wrong), "\(wrong)")
        }
    }

    // MARK: ChallengeEntry

    static func type(_ entry: inout ChallengeEntry, _ bytes: [UInt8]) -> [ChallengeEntry.Step] { bytes.map { entry.key($0) } }

    @Test("digits build the answer, backspace (DEL or ctrl-H) takes one back, Enter gives it and starts again; an empty Enter gives nothing")
    func editsTheAnswer() {
        var e = ChallengeEntry()
        #expect(e.key(0x0D) == .empty)
        #expect(Self.type(&e, Array("84".utf8)) == [.typing("8"), .typing("84")])
        #expect(e.key(0x7F) == .typing("8"))
        #expect(e.key(0x08) == .typing(""))
        #expect(e.key(0x7F) == .typing(""), "backspace on nothing")
        #expect(Self.type(&e, Array("85".utf8)) == [.typing("8"), .typing("85")])
        #expect(e.key(0x0D) == .entered("85"))
        #expect(e.text == "" && e.key(0x0A) == .empty)
        #expect(Self.type(&e, Array("7\n".utf8)) == [.typing("7"), .entered("7")])
    }

    @Test("letters, space and escape are not the entry's (the caller snoozes or refuses them); past six digits the rest are dropped")
    func notTheEntrysKeys() {
        var e = ChallengeEntry()
        for byte in Array("szq xQ".utf8) + [0x1B, 0x03, 0x80, 0xFF] {
            #expect(e.key(byte) == .notEntry, "\(byte)")
        }
        _ = Self.type(&e, Array("12345678".utf8))
        #expect(e.text == "123456")
        e.clear()
        #expect(e.text == "" && e.key(0x0D) == .empty)
    }

    // MARK: escape sequences are keys

    /// Types `reads` (one array per read) through a key reader into an entry, as the session does:
    /// the answer typed, and the keys that were not the entry's.
    static func answer(_ reads: [[UInt8]]) -> (text: String, others: [String]) {
        var reader = TerminalKeyReader()
        var e = ChallengeEntry()
        var others: [String] = []
        for read in reads {
            for key in reader.keys(in: read) {
                if let b = key.byte, e.key(b) != .notEntry { continue }
                others.append(key.name)
            }
        }
        return (e.text, others)
    }

    static let esc: UInt8 = 0x1B

    @Test("Delete, F-keys, arrows and mouse reports are one key each: their digits never type into the answer")
    func escapeSequencesAreKeys() {
        let delete = [Self.esc] + Array("[3~".utf8)
        let f1 = [Self.esc] + Array("OP".utf8)
        let f5 = [Self.esc] + Array("[15~".utf8)
        let up = [Self.esc] + Array("[A".utf8)
        let shiftF5 = [Self.esc] + Array("[15;2~".utf8)
        let x10Mouse = [Self.esc] + Array("[M".utf8) + [0x20, 0x35, 0x38]  // button, column '5', row '8'
        let sgrMouse = [Self.esc] + Array("[<0;12;5M".utf8)
        let typed = Array("8".utf8) + delete + f1 + f5 + up + shiftF5 + x10Mouse + sgrMouse + Array("5".utf8)
        let (text, others) = Self.answer([typed])
        #expect(text == "85")
        #expect(others == ["delete", "f1", "f5", "up", "f5", "mouse", "mouse"])
        #expect(KeyBinding.command(for: TerminalKey.sequence("delete")) == (.stop, .key("delete")))
    }

    @Test("a sequence split across two reads is still one key; a lone escape is a key at once, and a sequence's rest after it is swallowed")
    func splitSequences() {
        // ESC [ 1 | 5 ~ : the F5 key, split inside its digits.
        #expect(Self.answer([Array("4".utf8) + [Self.esc] + Array("[1".utf8), Array("5~2".utf8)]) == ("42", ["f5"]))
        // A mouse report split inside its raw bytes.
        #expect(Self.answer([[Self.esc] + Array("[M ".utf8), Array("56".utf8) + Array("7".utf8)]) == ("7", ["mouse"]))
        // Escape alone at the end of a read: said at once; if "[3~" follows, it is that key's rest.
        var reader = TerminalKeyReader()
        #expect(reader.keys(in: [Self.esc]) == [.sequence("escape")])
        #expect(reader.keys(in: Array("[3~9".utf8)) == [.byte(0x39)])
        // Escape then a plain key (Alt-5, or two presses): the escape, then the key.
        #expect(Self.answer([[Self.esc] + Array("5".utf8)]) == ("5", ["escape"]))
        #expect(Self.answer([[Self.esc], Array("5".utf8)]) == ("5", ["escape"]))
        // A runaway sequence is still one key; a control byte inside one ends it and is read afresh.
        let runaway = [Self.esc, UInt8(ascii: "[")] + [UInt8](repeating: UInt8(ascii: "1"), count: 400) + Array("~7".utf8)
        #expect(Self.answer([runaway]) == ("7", ["escape"]))
        #expect(Self.answer([[Self.esc] + Array("[1".utf8) + [0x03] + Array("3".utf8)]) == ("3", ["escape", "ctrl-C"]))
    }

    // MARK: Ctrl-Z

    @Test("""
        Ctrl-Z: waiting, the process stops; ringing, refused under a challenge and a snooze without; \
        pre-ringing, a snooze (the quiet ring stops)
        """)
    func ctrlZByState() {
        let wait = Wait(instant: Instant(seconds: 5000), clock: .wall)
        let since = Instant(seconds: 100)
        for challenge in [false, true] {
            #expect(AlarmEngine.suspended(in: .armed(wait), challenge: challenge) == .stopsProcess)
            #expect(AlarmEngine.suspended(in: .finished(.timedOut), challenge: challenge) == .stopsProcess)
            #expect(AlarmEngine.suspended(in: .preRinging(since: since, main: wait), challenge: challenge) == .snoozes)
        }
        #expect(AlarmEngine.suspended(in: .ringing(since: since), challenge: true) == .refused)
        #expect(AlarmEngine.suspended(in: .ringing(since: since), challenge: false) == .snoozes)
        // Snoozed: Ctrl-Z would keep the snooze from ringing until `fg`; under a challenge that is a stop by key.
        #expect(AlarmEngine.suspended(in: .snoozed(wait), challenge: true) == .refused)
        #expect(AlarmEngine.suspended(in: .snoozed(wait), challenge: false) == .stopsProcess)
    }

    // MARK: the engine's rule

    @Test("the rule by requester: a key never ends it, the notification and media keys snooze, the answer, a shell, a signal and the D-Bus API end it")
    func ruleByRequester() {
        #expect(AlarmEngine.challenged(.stop, by: .key("x")) == .ignored)
        #expect(AlarmEngine.challenged(.cancel, by: .key("q")) == .ignored)
        #expect(AlarmEngine.challenged(.stop, by: .notification) == .snoozes)
        #expect(AlarmEngine.challenged(.stop, by: .mediaControl(caller: ":1.9")) == .snoozes)
        for who in [Requester.answer, .control("wake stop (pid 7)"), .signal(name: "SIGTERM", number: 15), .busAPI(caller: ":1.4")] {
            #expect(AlarmEngine.challenged(.stop, by: who) == .ends, "\(who)")
            #expect(AlarmEngine.challenged(.cancel, by: who) == .ends, "\(who)")
        }
    }

    @Test("ringing: a key's stop or cancel is ignored and it rings on; the snooze keys still snooze")
    func keysDoNotStop() {
        var (e, now) = T.ringing(Self.challenged)
        let ringing = e.state
        for k: Character in ["x", "q", "1", "\r"] {
            let (command, who) = KeyBinding.command(for: k.asciiValue ?? 0)
            #expect(e.handle(.key(k, now)) == [.reportIgnored(command, by: who)], "\(k)")
            #expect(e.state == ringing)
        }
        let snoozed = e.handle(.key("z", now + .seconds(1)))
        #expect(snoozed.contains { if case .reportSnoozed = $0 { true } else { false } }, "\(snoozed)")
        // Snoozed: a key still cannot end it (a sleeper's z then q would skip the sum).
        #expect(e.handle(.key("q", now + .seconds(2))) == [.reportIgnored(.cancel, by: .key("q"))])
        #expect(e.handle(.key("x", now + .seconds(2))) == [.reportIgnored(.stop, by: .key("x"))])
        #expect(!e.isFinished)
    }

    @Test("ringing: the notification's Stop and MPRIS Stop/Next snooze (a swipe is not an answer); snoozed, they are ignored; past the limit refused")
    func swipesSnooze() {
        for who in [Requester.notification, .mediaControl(caller: ":1.9")] {
            var (e, now) = T.ringing(Self.challenged)
            let actions = e.handle(.command(.stop, by: who, now + .seconds(3)))
            #expect(actions.first == .stopRinging && actions.contains { if case .reportSnoozed = $0 { true } else { false } }, "\(who): \(actions)")
            #expect(e.snoozes.used == 1)
            if case .snoozed = e.state {} else { Issue.record("\(who): not snoozed: \(e.state)") }
            #expect(e.handle(.command(.stop, by: who, now + .seconds(4))) == [.reportIgnored(.snooze, by: who)])
            #expect(!e.isFinished)
        }
        var limited = Self.challenged
        limited.snoozeLimit = 1
        var (e, now) = T.ringing(limited)
        _ = e.handle(.command(.stop, by: .notification, now))
        now = now + .seconds(9 * 60)
        _ = e.handle(.timerFired(now))
        #expect(e.handle(.command(.stop, by: .notification, now)) == [.reportSnoozeRefused(SnoozeCount(used: 1, limit: 1), by: .notification)])
        #expect(e.state == .ringing(since: now.boottime))
    }

    @Test("the answer, wake stop, a signal and the D-Bus API end it, ringing or snoozed, as stopped by them")
    func othersStop() {
        for who in [Requester.answer, .control("wake stop (pid 7)"), .signal(name: "SIGINT", number: 2), .busAPI(caller: ":1.4")] {
            var (e, now) = T.ringing(Self.challenged)
            #expect(e.handle(.command(.stop, by: who, now)) == T.finishActions(.stopped(by: who), ringing: true), "\(who)")
            (e, now) = T.ringing(Self.challenged)
            _ = e.handle(.key("s", now))
            #expect(e.handle(.command(.cancel, by: who, now + .seconds(1))) == T.finishActions(.stopped(by: who), ringing: false), "\(who)")
        }
    }

    @Test("before it rings a challenge changes nothing: q cancels; without --challenge any key stops as before")
    func onlyOnceItRang() {
        var e = T.armed(Self.challenged)
        #expect(e.handle(.key("q", T.at(T.deadlineSeconds - 60))) == T.finishActions(.cancelled(by: .key("q")), ringing: false))
        var (plain, now) = T.ringing()
        #expect(plain.handle(.key("x", now)) == T.finishActions(.stopped(by: .key("x")), ringing: true))
        (plain, now) = T.ringing()
        #expect(plain.handle(.command(.stop, by: .notification, now)) == T.finishActions(.stopped(by: .notification), ringing: true))
    }

    // MARK: the notification

    @Test("the notification under a challenge: no Stop button, the snooze buttons, and the body says what stops it; snoozed, no button")
    func notice() {
        let ringing = DesktopNotice.make(.ringing(since: "07:00:02"), alarm: "07:00", snooze: .seconds(540), snoozeLong: .seconds(1080),
                                          challenge: true)
        #expect(ringing.buttons == [DesktopNotice.Button(key: "snooze", label: "Snooze 9 min"), DesktopNotice.Button(key: "snooze-long", label: "Snooze 18 min")])
        #expect(ringing.body.contains("solve the sum on the terminal or run 'wake stop'"), "\(ringing.body)")
        let snoozed = DesktopNotice.make(.snoozed(until: "07:09"), alarm: "07:00", snooze: .seconds(540), challenge: true)
        #expect(snoozed.buttons.isEmpty && snoozed.body.contains("'wake stop'"), "\(snoozed)")
        let plain = DesktopNotice.make(.ringing(since: "07:00:02"), alarm: "07:00", snooze: .seconds(540))
        #expect(plain.buttons.last?.key == "stop" && !plain.body.contains("wake stop"))
    }
}
