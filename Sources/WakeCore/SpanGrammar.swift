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

    /// Units as ASCII bytes, in the order they are matched: `ms` before `m`.
    static let units: [(name: [UInt8], milliseconds: Int64, rank: Int)] = [
        (Array("d".utf8), 86_400_000, 0), (Array("h".utf8), 3_600_000, 1), (Array("ms".utf8), 1, 4),
        (Array("m".utf8), 60_000, 2), (Array("s".utf8), 1000, 3),
    ]

    static var limitMilliseconds: Int64 { WakeSpec.maximumRelativeSeconds * 1000 }

    /// The span in milliseconds, or why it is not one (a reason, without the text itself).
    /// Read as bytes, not Characters: `wake list` parses every stored alarm's durations, and
    /// grapheme breaking cost it a tenth of its start-up; only printable ASCII gets that far.
    static func parse(_ text: Substring, allowBareZero: Bool) -> Result<Int64, SpanError> {
        guard !text.isEmpty else { return .failure(SpanError("empty; \(rule)")) }
        var lower: [UInt8] = []
        lower.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            guard b >= 0x20, b < 0x7F else {
                return .failure(SpanError("only ASCII digits and the units d, h, m, s, ms are understood"))
            }
            lower.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
        }
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        func shown(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes.prefix(20), as: UTF8.self) }
        if lower.allSatisfy(isDigit) {
            if allowBareZero && lower.allSatisfy({ $0 == 0x30 }) { return .success(0) }
            return .failure(SpanError("missing unit after \(shown(lower[...])) (d, h, m, s or ms)"))
        }
        var i = 0
        var total: Int64 = 0
        var lastRank = -1
        while i < lower.count {
            let start = i
            while i < lower.count, isDigit(lower[i]) { i += 1 }
            let digits = lower[start..<i]
            guard !digits.isEmpty else { return .failure(SpanError(rule)) }
            // Read the number with overflow checks: a thousand 9s is "too large", not a trap.
            var n: Int64 = 0
            for c in digits {
                n = n.times(10).plus(Int64(c - 0x30))
                if n > limitMilliseconds { n = limitMilliseconds + 1 }
            }
            let rest = lower[i...]
            guard let unit = units.first(where: { rest.starts(with: $0.name) }) else {
                if let c = rest.first { return .failure(SpanError("unknown unit '\(Character(Unicode.Scalar(c)))' after \(shown(digits)) (use d, h, m, s or ms)")) }
                return .failure(SpanError("missing unit after \(shown(digits)) (d, h, m, s or ms)"))
            }
            guard unit.rank > lastRank else {
                return .failure(SpanError("unit '\(String(decoding: unit.name, as: UTF8.self))' repeated or out of order (d, h, m, s, ms, largest first, each at most once)"))
            }
            lastRank = unit.rank
            i += unit.name.count
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
