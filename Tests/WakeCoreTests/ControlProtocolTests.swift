import Testing
import WakeCore

@Suite("Control protocol: requests, records, routing")
struct ControlProtocolTests {
    static func parse(_ text: String) -> Result<ControlRequest, ControlProtocolError> {
        do { return .success(try ControlRequest(parsing: Array(text.utf8))) } catch { return .failure(error) }
    }

    @Test("every request a client sends reads back as itself")
    func requestsRoundTrip() throws {
        let requests: [ControlRequest] = [.list, .command(.stop, id: nil), .command(.snooze, id: nil), .command(.stop, id: "4242"),
                                          .command(.snooze, id: "work-days_2"), .command(.cancel, id: "77"),
                                          .command(.snooze, id: nil, length: .span(.seconds(20 * 60))),
                                          .command(.snooze, id: "4242", length: .until(Instant(seconds: 1_800_000_000, nanoseconds: 5))),
                                          .command(.snooze, id: "work", length: .long),
                                          .command(.snooze, id: nil, length: .span(SnoozeLength.longest)), .extendSleep(.seconds(900))]
        for r in requests {
            var line = Array(r.line.utf8)
            #expect(line.last == UInt8(ascii: "\n"))
            line.removeLast()
            #expect(try ControlRequest(parsing: line) == r)
        }
    }

    @Test("anything else is refused with a reason, never a trap", arguments: [
        "", "wake/1", "wake/2 list", "WAKE/1 list", "wake/1 LIST", "wake/1 list x", "wake/1 cancel", "wake/1 stop a b",
        "wake/1 stop ", "wake/1  stop", "wake/1 stop Work", "wake/1 stop ../x", "wake/1 stop \u{1B}[2J", "wake/1 stöp",
        "wake/1 reboot", "wake/1 stop " + String(repeating: "a", count: 65), String(repeating: "x", count: 300), "wake/1 stop\t1",
        "wake/1 stop\u{0}",
        // A snooze's length: only for snooze, after the ID, canonical digits, more than zero, at most 12 hours.
        "wake/1 stop for=1000", "wake/1 list for=1000", "wake/1 snooze for=0", "wake/1 snooze for=01000", "wake/1 snooze for=+1000",
        "wake/1 snooze for=-1000", "wake/1 snooze for=43200001", "wake/1 snooze for=", "wake/1 snooze for=1e3", "wake/1 snooze until=-5",
        "wake/1 snooze until=99999999999999999999", "wake/1 snooze by=1000", "wake/1 snooze for=1000 4242", "wake/1 snooze 4242 for=1 for=2",
        "wake/1 snooze a b for=1000", "wake/1 snooze for=short",
        // `wake sleep +15m`'s: a span alone.
        "wake/1 extend", "wake/1 extend 4242 for=1000", "wake/1 extend for=long", "wake/1 extend until=5", "wake/1 extend for=0",
    ])
    func malformed(_ text: String) {
        guard case .failure(let e) = Self.parse(text) else {
            Issue.record("accepted '\(text)'")
            return
        }
        #expect(!e.description.isEmpty && !e.description.contains("\n"))
    }

    @Test("random bytes never crash the parser, and whatever it accepts is a request it could have been sent")
    func randomBytes() {
        var rng = PropertyRNG(seed: 0xC0_4E7E_01)
        let words = Array("wake/1 list stop snooze cancel 4242 work - _ ".utf8)
        for _ in 0..<20_000 {
            let n = rng.below(40)
            let bytes = (0..<n).map { _ in rng.chance(70) ? rng.pick(words) : UInt8(truncatingIfNeeded: rng.next()) }
            if let r = try? ControlRequest(parsing: bytes) {
                #expect(Array(r.line.utf8.dropLast()) == bytes)
            }
        }
    }

    @Test("a record carries any value through: spaces, '=', '%', newlines, escapes, non-ASCII")
    func recordsRoundTrip() throws {
        var rng = PropertyRNG(seed: 7)
        let alphabet: [String] = [" ", "=", "%", "\n", "\r", "\t", "\u{1B}", "\u{7F}", "a", "Z", "0", "/", "é", "☃", "\u{202E}", "%2", "\u{0}"]
        for _ in 0..<2_000 {
            var fields: [String: String] = [:]
            for key in ["id", "time", "sound", "state"] where rng.chance(80) {
                fields[key] = (0..<rng.below(12)).map { _ in rng.pick(alphabet) }.joined()
            }
            let record = ControlRecord(fields)
            let line = record.line
            #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" && $0 != "\r" })
            #expect(try ControlRecord(decoding: line.dropLast()) == record)
        }
    }

    @Test("a broken record line is refused", arguments: ["id", "id=%", "id=%4", "id=%zz", "=x", "ID=1", "a-b=1"])
    func brokenRecords(_ line: String) {
        #expect(throws: ControlProtocolError.self) { try ControlRecord(decoding: Substring(line)) }
    }

    // MARK: routing

    typealias A = ControlRouting.Alarm

    @Test("without an ID a command goes to every alarm it means something to, and to nothing else")
    func routingWithoutID() {
        let alarms = [A(id: "a", phase: .waiting, standing: true), A(id: "b", phase: .ringing, standing: true),
                      A(id: "c", phase: .snoozed, standing: true), A(id: "d", phase: .finished, standing: true)]
        #expect(ControlRouting.route(.stop, id: nil, alarms: alarms).map(\.id) == ["b", "c"])
        #expect(ControlRouting.route(.snooze, id: nil, alarms: alarms).map(\.id) == ["b"])
        #expect(ControlRouting.route(.stop, id: nil, alarms: [alarms[0]]).isEmpty, "a waiting alarm is never stopped by a bare 'wake stop'")
    }

    @Test("a named alarm gets the command or the reason it does not", arguments: [
        (AlarmCommand.stop, ControlRouting.Phase.ringing, false, ControlRouting.Verdict.apply),
        (.stop, .snoozed, false, .apply),
        (.stop, .waiting, false, .refuse(.waiting)),
        (.snooze, .ringing, true, .apply),
        (.snooze, .snoozed, true, .refuse(.snoozed)),
        (.snooze, .waiting, true, .refuse(.waiting)),
        (.cancel, .waiting, false, .apply),
        (.cancel, .ringing, false, .apply),
        (.cancel, .waiting, true, .refuse(.standing)),
        (.stop, .finished, false, .refuse(.finished)),
    ])
    func routingByID(command: AlarmCommand, phase: ControlRouting.Phase, standing: Bool, verdict: ControlRouting.Verdict) {
        let alarms = [A(id: "x", phase: phase, standing: standing), A(id: "y", phase: .ringing, standing: standing)]
        let routed = ControlRouting.route(command, id: "x", alarms: alarms)
        #expect(routed.count == 1 && routed.first?.id == "x" && routed.first?.verdict == verdict)
        #expect(ControlRouting.route(command, id: "nobody", alarms: alarms).isEmpty)
    }
}
