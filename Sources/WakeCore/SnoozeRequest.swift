/// What `wake snooze [ID] [LENGTH] [--until TIME]` asks for, read from its words before anyone
/// is asked. Pure: "now", the zone and the names of the alarms are handed in.
///
/// One word is a length only when it reads as one and no alarm has it as its name: a standing
/// alarm named `20m` (from before `wake add` refused such names) keeps answering to it, and
/// `wake snooze 20m 20m` snoozes it for 20 minutes.
public struct SnoozeRequest: Equatable, Sendable {
    public var id: String?
    public var length: SnoozeLength

    public init(id: String?, length: SnoozeLength) { self.id = id; self.length = length }

    /// Why the words ask for nothing that can be done: one line, the usage error's.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// What to try instead of a length that cannot be taken.
    static let advice = "give a length as 20m, or a time as --until 07:40"

    /// `words`: what followed `snooze` (at most ID and LENGTH); `until`: `--until`'s value;
    /// `isAlarmName`: whether an alarm answers to a word (asked only of a word that reads as a
    /// length).
    public static func parse(words: [String], until: String?, isAlarmName: (String) -> Bool,
                             now: Instant, zone: TimeZoneRules) throws(Problem) -> SnoozeRequest {
        var id: String?
        var spanText: String?
        switch words.count {
        case 0: break
        case 1:
            let word = words[0]
            if readsAsNegativeLength(word) { spanText = word }
            else if readsAsLength(word) && !isAlarmName(word) { spanText = word }
            else { id = word }
        case 2: (id, spanText) = (words[0], words[1])
        default:
            throw Problem("snooze takes an ID and a length at most, not '\(words.map(\.printable).joined(separator: " "))'; "
                          + "as 'wake snooze 20m' or 'wake snooze work 20m'")
        }
        if let spanText, let until {
            throw Problem("give a snooze length or --until, not both ('\(spanText.printable)' and --until '\(until.printable)'); "
                          + "as 'wake snooze 20m' or 'wake snooze --until 07:40'")
        }
        if let spanText { return SnoozeRequest(id: id, length: .span(try span(spanText))) }
        if let until { return SnoozeRequest(id: id, length: .until(try instant(until, now: now, zone: zone))) }
        return SnoozeRequest(id: id, length: .standard)
    }

    /// Whether `word` reads as a snooze length (`20m`, `0`): `wake add` refuses such a name.
    public static func readsAsLength(_ word: String) -> Bool { (try? DurationText.parse(word)) != nil }

    /// Whether `word` reads as a length with a minus sign (`-5m`, `-1`): no alarm has such a
    /// name (`wake add` takes none starting with '-'), so it is a length, and a wrong one.
    public static func readsAsNegativeLength(_ word: String) -> Bool {
        word.hasPrefix("-") && word.dropFirst().first?.isNumber == true
    }

    /// A length more than zero and at most `SnoozeLength.longest`.
    static func span(_ text: String) throws(Problem) -> Duration {
        if readsAsNegativeLength(text) {
            throw Problem("snooze length '\(text.printable)' is negative: a snooze lasts a positive length; "
                          + "give one as 20m, or a time as --until 07:40")
        }
        let d: Duration
        do { d = try DurationText.parse(text) } catch { throw Problem("snooze length: \(error.description)") }
        guard d > .zero else { throw Problem("snooze length '\(text.printable)' is zero: it would not snooze; \(advice)") }
        guard d <= SnoozeLength.longest else {
            throw Problem("snooze length '\(text.printable)' is longer than \(longestText), the longest snooze; "
                          + "give a shorter one, or stop the alarm with 'wake stop'")
        }
        return d
    }

    /// The next time the wall clock reads `text` after `now` (a time of day only), within
    /// `SnoozeLength.longest`: one further off is more likely a time just passed than a wish.
    static func instant(_ text: String, now: Instant, zone: TimeZoneRules) throws(Problem) -> Instant {
        let spec: WakeSpec
        // `7:40 pm` may come as one word with a space, as WHEN does.
        do { spec = try WakeSpec(parsing: text.split(separator: " ").map(String.init)) } catch {
            throw Problem("--until: invalid time '\(text.printable)': \(error.reason); give a time of day, as 07:40 or 7:40am")
        }
        guard case .timeOfDay = spec else {
            throw Problem("--until: '\(text.printable)' is not a time of day; give one, as 07:40 or 7:40am (a span goes without --until, as 'wake snooze 20m')")
        }
        let deadline: Deadline
        do { deadline = try Schedule.resolve(spec, token: text, now: now, zone: zone) } catch {
            throw Problem("--until: \(error.description)")
        }
        var until = deadline.instant
        // The rule for alarms (a repeated reading means its first pass) would make 02:20, asked
        // at 02:50 on the first pass of a fall-back night, tomorrow's; a snooze means the second
        // pass, half an hour on.
        if case .timeOfDay(let h, let m, let sec) = spec {
            let reading = LocalDateTime(date: zone.localTime(at: now).date, hour: h, minute: m, second: sec)
            if let pass = zone.instants(for: reading).first(where: { $0 > now }), pass < until { until = pass }
        }
        let away = until - now
        guard away <= SnoozeLength.longest else {
            throw Problem("--until \(text.printable) is \(Formatting.span(away)) away, more than \(longestText), the longest snooze; "
                          + "give a time within \(longestText), or stop the alarm with 'wake stop'")
        }
        return until
    }

    static var longestText: String { DurationText.format(SnoozeLength.longest) }
}
