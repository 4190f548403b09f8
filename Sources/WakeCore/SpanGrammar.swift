/// The one grammar for spans of time, shared by `+SPAN` in WHEN and by DURATION options
/// (`--snooze`, `--ring-for`, ...), so that whatever one accepts the other accepts too.
///
/// A span is one or more `NUMBER UNIT` pairs, units `d`, `h`, `m`, `s`, `ms` (any case),
/// largest first, each at most once: `1h30m`, `90s`, `500ms`, `1d2h`, `1m30s500ms`. Durations
/// may also be a bare `0` (there is nothing to measure, so no unit is needed); WHEN's `+SPAN`
/// must be longer than zero. Everything is limited to `WakeSpec.maximumRelativeSeconds`.
enum SpanGrammar {
    /// The rule in words, quoted by every span error so the two messages read alike.
    static let rule = "a span is numbers with units d, h, m, s, ms, largest first, each at most once, as 90s, 1h30m, 500ms, 1d2h"

    static let units: [(name: String, milliseconds: Int64)] = [
        ("d", 86_400_000), ("h", 3_600_000), ("ms", 1), ("m", 60_000), ("s", 1000),
    ]
    /// The order units must come in (largest first); `ms` is checked before `m` when matching.
    static let rank: [String: Int] = ["d": 0, "h": 1, "m": 2, "s": 3, "ms": 4]

    static var limitMilliseconds: Int64 { WakeSpec.maximumRelativeSeconds * 1000 }

    /// The span in milliseconds, or why it is not one (a reason, without the text itself).
    static func parse(_ text: Substring, allowBareZero: Bool) -> Result<Int64, SpanError> {
        guard !text.isEmpty else { return .failure(SpanError("empty; \(rule)")) }
        guard text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }) else {
            return .failure(SpanError("only ASCII digits and the units d, h, m, s, ms are understood"))
        }
        let lower = text.lowercased()
        if lower.allSatisfy(\.isWholeNumberDigit) {
            if allowBareZero && lower.allSatisfy({ $0 == "0" }) { return .success(0) }
            return .failure(SpanError("missing unit after \(lower.prefix(20)) (d, h, m, s or ms)"))
        }
        var rest = Substring(lower)
        var total: Int64 = 0
        var lastRank = -1
        while !rest.isEmpty {
            let digits = rest.prefix(while: \.isWholeNumberDigit)
            guard !digits.isEmpty else { return .failure(SpanError(rule)) }
            rest = rest[digits.endIndex...]
            // Read the number with overflow checks: a thousand 9s is "too large", not a trap.
            var n: Int64 = 0
            for c in digits.utf8 {
                n = n.times(10).plus(Int64(c - 48))
                if n > limitMilliseconds { n = limitMilliseconds + 1 }
            }
            guard let unit = units.first(where: { rest.hasPrefix($0.name) }) else {
                if let c = rest.first { return .failure(SpanError("unknown unit '\(c)' after \(digits.prefix(20)) (use d, h, m, s or ms)")) }
                return .failure(SpanError("missing unit after \(digits.prefix(20)) (d, h, m, s or ms)"))
            }
            let r = rank[unit.name] ?? 0
            guard r > lastRank else {
                return .failure(SpanError("unit '\(unit.name)' repeated or out of order (d, h, m, s, ms, largest first, each at most once)"))
            }
            lastRank = r
            rest = rest.dropFirst(unit.name.count)
            total = total.plus(n.times(unit.milliseconds))
            guard total <= limitMilliseconds else { return .failure(SpanError("too large (at most 10 years)")) }
        }
        return .success(total)
    }
}

/// Why a span was refused, in words a person can act on.
struct SpanError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension Character {
    /// `0`...`9` only: `isNumber` would also take Arabic-Indic and full-width digits.
    var isWholeNumberDigit: Bool { asciiValue.map { (48...57).contains($0) } ?? false }
}
