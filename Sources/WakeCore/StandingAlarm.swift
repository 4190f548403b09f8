/// An alarm kept in the alarms file and rung by `wake daemon`: a time of day that repeats on
/// some weekdays, or a one-off. A plain value; reading and writing it is `AlarmBook`'s job.
public struct StandingAlarm: Hashable, Sendable {
    /// 1 to 32 of `a-z 0-9 _ -`, not starting with `-` (see `isValidName`).
    public var name: String
    /// Local time of day.
    public var hour: Int, minute: Int, second: Int
    /// Weekday bits: bit w is weekday w (0 = Sunday ... 6 = Saturday), as `CivilDate.weekday`.
    /// 0 is a one-off: on `date` when it is set, else at the first `time` after `created`.
    public var days: UInt8
    /// A one-off on this local date (WHEN was a date and time); nil otherwise.
    public var date: CivilDate?
    /// Ring options exactly as given on the command line, keyed by long option name without
    /// dashes (`AlarmBook.optionKeys`): checked again, by the command line's own rules, on load.
    public var options: [String: String]
    /// When it was added, or last changed or switched on (`wake change`, `wake on`): no
    /// occurrence before it is owed, so an edit never rings or misses one at once.
    public var created: Instant
    /// A one-off at this instant (`wake add +25m`, a running timer); `hour` ... then only show it.
    public var at: Instant?
    /// A timer's span, pause and repeat (`wake timer`, StandingTimer.swift); nil for an alarm.
    public var timer: StandingTimer?

    public init(name: String, hour: Int, minute: Int, second: Int, days: UInt8, date: CivilDate?,
                options: [String: String], created: Instant, at: Instant? = nil, timer: StandingTimer? = nil) {
        self.at = at; self.timer = timer
        self.name = name
        self.hour = hour; self.minute = minute; self.second = second
        self.days = days
        self.date = date
        self.options = options
        self.created = created
    }

    /// Switched off (`wake off`): kept, never rung, until `wake on`.
    public var isOff: Bool { options[AlarmOption.switchState.name] == "off" }

    /// Its group (`--group`), if it has one.
    public var group: String? { options[AlarmOption.group.name] }

    /// The longest name accepted.
    public static let nameLimit = 32

    /// 1 to 32 of `a-z`, `0-9`, `_` and `-`, not starting with `-` (so a name is never taken
    /// for an option on the command line). Such a name is a TOML bare key, a file name and a
    /// word that needs no quoting or escaping anywhere it is printed.
    public static func isValidName(_ s: String) -> Bool {
        let u = s.utf8
        guard (1...nameLimit).contains(u.count), u.first != UInt8(ascii: "-") else { return false }
        return u.allSatisfy { c in
            (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
        }
    }

    /// Weekday bits for every day, Monday to Friday, Saturday and Sunday: `DaySet`'s, as bits.
    public static let everyDay = DaySet.daily.bits
    public static let weekdays = DaySet.weekdays.bits
    public static let weekend = DaySet.weekends.bits

    /// The days it rings on (empty for a one-off).
    public var daySet: DaySet { DaySet(bits: days) }

    /// `06:30:00`, as the alarms file writes it.
    public var timeText: String { TOMLSubset.timeText(hour, minute, second) }

    /// `06:30`, with the seconds only when there are any: how a person wrote it.
    public var shortTimeText: String {
        "\(AlarmBook.two(hour)):\(AlarmBook.two(minute))" + (second != 0 ? ":\(AlarmBook.two(second))" : "")
    }

    /// Its time as a person reads it, in the reader's clock (`06:30`, `6:30 AM`; `ClockStyle`);
    /// `alwaysSeconds`: `06:30:00` on a 24-hour clock, for a column of times.
    public func shownTime(alwaysSeconds: Bool = false) -> String {
        Formatting.wallTime(hour: hour, minute: minute, second: second, alwaysSeconds: alwaysSeconds)
    }

    /// `2026-11-24` for a one-off on a date.
    public var dateText: String? { date.map(TOMLSubset.dateText) }
}
