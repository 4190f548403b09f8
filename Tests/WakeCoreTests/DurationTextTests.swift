import Testing
import WakeCore

/// Durations as options take them (`--snooze 9m`, `--ring-for 30s`, `--late-limit 1h30m`).
@Suite("DurationText")
struct DurationTextTests {
    @Test("parsing", arguments: [
        ("9m", Duration.seconds(540)), ("30s", .seconds(30)), ("1h30m", .seconds(5400)), ("500ms", .milliseconds(500)),
        ("0", .zero), ("00", .zero), ("90s", .seconds(90)), ("1h", .seconds(3600)), ("1m30s", .seconds(90)), ("2s500ms", .milliseconds(2500)),
        ("1h2m3s4ms", .milliseconds(3_723_004)), ("9M", .seconds(540)), ("1H30M", .seconds(5400)), ("0s", .zero),
        ("0m", .zero), ("007s", .seconds(7)), ("1500ms", .milliseconds(1500)), ("316224000s", .seconds(316_224_000)),
        ("87840h", .seconds(316_224_000)), ("3660d", .seconds(316_224_000)), ("1d", .seconds(86_400)),
        ("1d2h", .seconds(93_600)), ("1D", .seconds(86_400)), ("1m30s500ms", .milliseconds(90_500)), ("0ms", .zero),
        ("0h0m", .zero), ("1d0h0m0s0ms", .seconds(86_400)),
    ])
    func parse(text: String, duration: Duration) throws {
        #expect(try DurationText.parse(text) == duration)
    }

    @Test("formatting: the shortest text that reads back the same", arguments: [
        (Duration.seconds(540), "9m"), (.seconds(30), "30s"), (.seconds(5400), "1h30m"), (.milliseconds(500), "500ms"),
        (.zero, "0s"), (.seconds(90), "1m30s"), (.seconds(3600), "1h"), (.seconds(3601), "1h1s"), (.seconds(3661), "1h1m1s"),
        (.milliseconds(1500), "1500ms"), (.seconds(86_400), "24h"), (.seconds(600), "10m"), (.seconds(1800), "30m"),
        (.seconds(60), "1m"), (.seconds(3660), "1h1m"), (.seconds(3660 + 59), "1h1m59s"), (.seconds(7200 + 1), "2h1s"),
    ])
    func format(duration: Duration, text: String) {
        #expect(DurationText.format(duration) == text)
    }

    @Test("round trip", arguments: ["9m", "30s", "1h30m", "500ms", "0", "90s", "1h", "10m", "1m30s", "1500ms", "1h1m1s", "45s", "1d2h"])
    func roundTrip(_ text: String) throws {
        let d = try DurationText.parse(text)
        let formatted = DurationText.format(d)
        #expect(try DurationText.parse(formatted) == d)
        #expect(DurationText.format(try DurationText.parse(formatted)) == formatted)
    }

    @Test("canonical texts format back to themselves", arguments: ["9m", "30s", "1h30m", "500ms", "0s", "1h", "1m30s"])
    func canonical(_ text: String) throws {
        #expect(DurationText.format(try DurationText.parse(text)) == text)
    }

    @Test("rejects", arguments: [
        "-1m", "abc", "5x", "", "m", "ms", "h5", "1h1h", "1m1m", "1.5m", " 9m", "9m ", "9 m", "9m0", "1h-1m", "+9m", "٩m",
        "９m", "9ｍ", "9m\0", "\0", "99999999999999m", "9999999999999", "87841h", "316224001", "316224001s",
        String(repeating: "9", count: 40), "3661d", "1w",
        // Bare numbers other than 0: a unit is always needed, as in +SPAN.
        "90", "007", "1", "316224000",
        // Units out of order or repeated.
        "1s1m", "1ms1s", "1m1h", "1h1d", "1d1d", "1ms1ms", "500ms1s", "9min", "9sec", "1hr", "-0", "0x10", "1e3",
    ])
    func rejects(_ text: String) {
        do {
            let d = try DurationText.parse(text)
            Issue.record("\(text.debugDescription) parsed as \(d)")
        } catch {
            #expect(error.text == text)
        }
    }

    @Test("the message quotes the text and shows the accepted forms")
    func message() {
        do {
            _ = try DurationText.parse("5x")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("invalid duration '5x': "))
            #expect(error.reason.contains("unknown unit 'x'"))
            for form in ["9m", "90s", "1h30m", "500ms"] { #expect(error.description.contains(form)) }
        }
        do {
            _ = try DurationText.parse("9m\0")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("'9m\\x00'"))
        }
    }
}
