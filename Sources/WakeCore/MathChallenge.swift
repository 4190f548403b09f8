/// `--challenge math`: the sum a sleeper must solve on the terminal before a key stops the
/// alarm. Two whole numbers from 10 to 99, added: small enough to do in one's head half awake,
/// too many answers (20 to 198) to hit by mashing keys. Pure: the numbers come from the
/// generator handed in (the runner's, or a test's seeded one).
public struct MathChallenge: Hashable, Sendable {
    /// The range each number is drawn from.
    public static let terms: ClosedRange<Int> = 10...99

    public let first: Int
    public let second: Int

    public init(first: Int, second: Int) {
        self.first = first
        self.second = second
    }

    /// A fresh sum drawn from `generator`.
    public init(using generator: inout some RandomNumberGenerator) {
        self.init(first: Int.random(in: Self.terms, using: &generator), second: Int.random(in: Self.terms, using: &generator))
    }

    /// `37 + 48`: as the ring line and the event log say it.
    public var question: String { "\(first) + \(second)" }

    /// The sum (no overflow: both numbers are small).
    public var answer: Int { first.addingReportingOverflow(second).partialValue }

    /// Whether `text` (digits as typed, leading zeros allowed) is the sum.
    public func isAnswered(by text: String) -> Bool {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
        let digits = text.drop { $0 == "0" }
        // Longer than any sum can be: not it (and never parsed into an overflowing number).
        guard digits.count <= 6 else { return false }
        return (Int(digits) ?? 0) == answer
    }
}

/// The answer being typed on the terminal: digits, backspace, Enter. Pure; the session feeds
/// it the key bytes while a challenged alarm rings.
public struct ChallengeEntry: Hashable, Sendable {
    /// The most digits kept: no sum has more, and the line stays short.
    public static let limit = 6

    /// What one key did.
    public enum Step: Hashable, Sendable {
        /// A digit or backspace changed the entry (or a digit past the limit was dropped): the
        /// text so far, to show.
        case typing(String)
        /// Enter with digits typed: the answer given; the entry is empty again.
        case entered(String)
        /// Enter with nothing typed: nothing to check.
        case empty
        /// Not a key of the entry (a letter, an escape): the caller decides what it means.
        case notEntry
    }

    public private(set) var text = ""

    public init() {}

    public mutating func key(_ byte: UInt8) -> Step {
        switch byte {
        case 0x30...0x39:
            if text.count < Self.limit { text.append(Character(UnicodeScalar(byte))) }
            return .typing(text)
        case 0x7F, 0x08:  // DEL (most terminals' backspace) and ctrl-H
            if !text.isEmpty { text.removeLast() }
            return .typing(text)
        case 0x0D, 0x0A:
            guard !text.isEmpty else { return .empty }
            defer { text = "" }
            return .entered(text)
        default:
            return .notEntry
        }
    }

    /// Forgets what was typed (the ring ended or was snoozed).
    public mutating func clear() { text = "" }
}
