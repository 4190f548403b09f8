import Testing
import WakeCore

/// One span grammar (issue 13 item 7): `--snooze SPAN` and `wake +SPAN` accept exactly the
/// same spans (but for a bare 0, which only a duration may be), with the same limit and
/// errors that read alike.
@Suite("One span grammar")
struct SpanGrammarTests {
    /// What `wake +SPAN` makes of a span, as a duration, or the refusal's reason.
    static func asWhen(_ span: String) -> SpanOutcome {
        do {
            guard case .relative(let d) = try WakeSpec(parsing: "+" + span) else { return .refused("not relative") }
            return .ok(d)
        } catch {
            return .refused(error.reason)
        }
    }

    static func asDuration(_ span: String) -> SpanOutcome {
        do { return .ok(try DurationText.parse(span)) } catch { return .refused(error.reason) }
    }

    static let spans = [
        "1h30m", "90s", "500ms", "1d2h", "1d", "2h", "9m", "45s", "1m30s", "1h1m1s", "2s500ms", "1d1h1m1s1ms", "3660d",
        "87840h", "316224000s", "316224000000ms", "0090m", "9M", "1H30M", "500MS", "1D2H",
        // Refused by both.
        "30s1m", "1m1h", "1ms1s", "500ms1s", "1h1h", "1d1d", "1s1d", "1.5h", "1w", "1y", "5min", "5x", "h", "ms", "m5", "5",
        "90", "3661d", "87841h", "316224000001ms", "99999999999999999999h", "", " 5m", "5m ", "5 m", "-5m", "+5m", "٥m",
        "５m", "5ｍ", "5m\0", "1h-1m", "0x10", "1e3", String(repeating: "9", count: 30) + "ms",
    ]

    @Test("durations and +SPAN accept the same spans, as the same length", arguments: spans)
    func agree(_ span: String) {
        switch (Self.asDuration(span), Self.asWhen(span)) {
        case (.ok(let a), .ok(let b)): #expect(a == b)
        case (.refused, .refused): break
        case (.ok(let a), .refused(let why)): Issue.record("duration \(span.debugDescription) = \(a), but +SPAN refused: \(why)")
        case (.refused(let why), .ok(let b)): Issue.record("+SPAN \(span.debugDescription) = \(b), but duration refused: \(why)")
        }
    }

    @Test("the two examples of issue 13: +500ms is a time, 30s1m is neither")
    func issueExamples() throws {
        #expect(try WakeSpec(parsing: "+500ms") == .relative(.milliseconds(500)))
        #expect(try DurationText.parse("500ms") == .milliseconds(500))
        #expect(throws: DurationText.ParseError.self) { try DurationText.parse("30s1m") }
        #expect(throws: WakeSpec.ParseError.self) { try WakeSpec(parsing: "+30s1m") }
    }

    @Test("zero: a bare 0 or a zero span is a duration, never a time")
    func zero() throws {
        for z in ["0", "00", "0s", "0ms", "0h0m", "0d"] {
            #expect(try DurationText.parse(z) == .zero)
            #expect(throws: WakeSpec.ParseError.self) { try WakeSpec(parsing: "+" + z) }
        }
        #expect(try #require(Self.asWhen("0s").reason).contains("zero"))
    }

    @Test("the same reasons in both messages")
    func sameReasons() throws {
        for span in ["30s1m", "5x", "5", "99999999999999h", "1.5h", "m"] {
            let a = try #require(Self.asDuration(span).reason), b = try #require(Self.asWhen(span).reason)
            #expect(a == b, "\(span): \(a) / \(b)")
        }
        #expect(try #require(Self.asDuration("30s1m").reason).contains("out of order"))
        #expect(try #require(Self.asDuration("5").reason).contains("missing unit"))
        #expect(try #require(Self.asDuration("99999999999999h").reason).contains("too large"))
        let d = try #require(Self.durationError("30s1m"))
        #expect(d.description.hasPrefix("invalid duration '30s1m': unit 'm' repeated or out of order"))
        #expect(d.description.contains("1d2h"))
        #expect(!d.description.contains("\n"))
    }

    static func durationError(_ s: String) -> DurationText.ParseError? {
        do { _ = try DurationText.parse(s); return nil } catch { return error }
    }

    @Test("every span formatted by DurationText reads back through +SPAN too")
    func formattedSpansAreTimes() throws {
        var rng = PropertyRNG(seed: 0x5BA2)
        for _ in 0..<5_000 {
            let ms = 1 + Int64(rng.below(Int(WakeSpec.maximumRelativeSeconds * 1000)))
            let d = Duration.milliseconds(rng.chance(50) ? ms / 1000 * 1000 : ms)
            guard d > .zero else { continue }
            let text = DurationText.format(d)
            #expect(try DurationText.parse(text) == d)
            #expect(try WakeSpec(parsing: "+" + text) == .relative(d))
        }
    }
}

enum SpanOutcome {
    case ok(Duration)
    case refused(String)
    var reason: String? {
        if case .refused(let r) = self { return r }
        return nil
    }
}
