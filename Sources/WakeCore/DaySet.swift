/// A set of weekdays. Weekday numbers as `CivilDate.weekday`: 0 = Sunday ... 6 = Saturday.
///
/// What `--days` takes for a standing alarm. Only bits 0-6 mean anything: the initialisers
/// clear bit 7, and every query ignores it, so no value of `bits` can name an eighth day.
public struct DaySet: Hashable, Sendable {
    /// Bit `w` set: weekday `w` is selected.
    public var bits: UInt8

    static let allBits: UInt8 = 0x7F

    public init(bits: UInt8) { self.bits = bits & DaySet.allBits }

    /// The set of the given weekday numbers; numbers outside 0...6 are ignored (never a trap).
    public init(weekdays: [Int]) {
        var bits: UInt8 = 0
        for w in weekdays where (0...6).contains(w) { bits |= 1 << UInt8(w) }
        self.bits = bits
    }

    public static let daily = DaySet(bits: 0x7F)
    /// Monday to Friday.
    public static let weekdays = DaySet(bits: 0b0011_1110)
    /// Saturday and Sunday.
    public static let weekends = DaySet(bits: 0b0100_0001)
    public static let none = DaySet(bits: 0)

    public func contains(_ weekday: Int) -> Bool {
        (0...6).contains(weekday) && bits & (1 << UInt8(weekday)) != 0
    }

    public var isEmpty: Bool { bits & DaySet.allBits == 0 }

    /// Short names by weekday number.
    static let shortNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let fullNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    /// Weekday numbers in the order people read a week here: Monday first.
    static let weekOrder = [1, 2, 3, 4, 5, 6, 0]

    /// Short names in week order, Monday first: `["mon", "tue", ...]`.
    public var names: [String] { DaySet.weekOrder.filter(contains).map { DaySet.shortNames[$0] } }

    /// Canonical text: `daily`, `weekdays`, `weekends`, else the short names joined with ","
    /// (`mon,wed,fri`); the empty set gives "" (which `init(parsing:)` refuses: an alarm that
    /// never rings is not a standing alarm). Every non-empty set's canonical text parses back
    /// to the same set.
    public var canonical: String {
        switch bits & DaySet.allBits {
        case DaySet.daily.bits: return "daily"
        case DaySet.weekdays.bits: return "weekdays"
        case DaySet.weekends.bits: return "weekends"
        default: return names.concatenated(separator: ",")
        }
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// The text as given (raw: escape it before printing; `description` does).
        public var text: String
        /// Why, in words; any part of the input quoted in it is already escaped.
        public var reason: String
        public init(text: String, reason: String) { self.text = text; self.reason = reason }
        public var description: String {
            "invalid days '\(text.printable)': \(reason); use daily, weekdays, weekends, day names (mon...sun), ranges (mon-fri) or lists (mon,wed,fri)"
        }
    }

    /// Parses what `--days` takes:
    /// - `daily`, `weekdays` (Monday to Friday), `weekends` (Saturday and Sunday);
    /// - day names: `mon` ... `sun` or in full, `monday` ... `sunday`;
    /// - ranges `mon-fri`, inclusive, going forward through the week, so `fri-mon` wraps round
    ///   the weekend (Friday, Saturday, Sunday, Monday). A range from a day to itself (`mon-mon`)
    ///   is that one day, not the whole week: `daily` says the week;
    /// - comma lists of any of these (`mon,wed,fri`, `sat,sun`, `mon-wed,fri`, `weekends,fri`):
    ///   their union; a day named twice is simply selected.
    /// Any case; spaces (any whitespace) around the whole, around commas and around dashes.
    /// Errors: empty text, an empty list item (`mon,,fri`, `mon,`), an unknown name, a range
    /// with a missing end or more than two ends (`mon-`, `mon-wed-fri`), a keyword in a range
    /// (`weekdays-sun`).
    public init(parsing text: String) throws(DaySet.ParseError) {
        func fail(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }
        func trimmed(_ s: Substring) -> Substring {
            guard let start = s.firstIndex(where: { !$0.isWhitespace }),
                  let end = s.lastIndex(where: { !$0.isWhitespace }) else { return s[s.endIndex...] }
            return s[start...end]
        }
        func day(_ word: Substring) throws(DaySet.ParseError) -> Int {
            let w = word.lowercased()
            if let i = DaySet.shortNames.firstIndex(of: w) ?? DaySet.fullNames.firstIndex(of: w) { return i }
            if DaySet.keywords[w] != nil {
                throw fail("'\(String(word).printable)' cannot be the end of a range; ranges join day names (mon-fri)")
            }
            throw fail("unknown day '\(String(word).printable)'")
        }

        let whole = trimmed(Substring(text))
        guard !whole.isEmpty else { throw fail("no days given") }
        var bits: UInt8 = 0
        for rawItem in whole.split(separator: ",", omittingEmptySubsequences: false) {
            let item = trimmed(rawItem)
            guard !item.isEmpty else { throw fail("an empty item in the list") }
            if let keyword = DaySet.keywords[item.lowercased()] {
                bits |= keyword.bits
                continue
            }
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map(trimmed)
            switch ends.count {
            case 1:
                bits |= 1 << UInt8(try day(ends[0]))
            case 2:
                guard !ends[0].isEmpty, !ends[1].isEmpty else {
                    throw fail("the range '\(String(item).printable)' lacks a day at one end")
                }
                let first = try day(ends[0]), last = try day(ends[1])
                // Forward from `first` to `last` through the week, wrapping after Saturday.
                var w = first
                while true {
                    bits |= 1 << UInt8(w)
                    if w == last { break }
                    w = (w + 1) % 7
                }
            default:
                throw fail("the range '\(String(item).printable)' has more than two ends")
            }
        }
        self.bits = bits
    }

    static let keywords: [String: DaySet] = ["daily": .daily, "weekdays": .weekdays, "weekends": .weekends]
}
