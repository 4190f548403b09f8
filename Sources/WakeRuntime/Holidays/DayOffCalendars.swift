import WakeCore
import WakeSystem

/// The holiday calendars a standing alarm skips the days of (`--skip-days`), read from their
/// files. `wake add` refuses a calendar it cannot use; the daemon, `wake list` and the others
/// read the same files through `AlarmDaysOff`, with `problems` said instead, and the alarm then
/// rings on the days that calendar would have skipped: a broken calendar never silences an alarm.
public struct DayOffCalendars {
    public struct Calendar {
        /// As given (an absolute path, as `wake add` stores it).
        public var path: String
        public var calendar: HolidayCalendar
        /// The file's name, as reasons name it: `Easter Monday (holidays-de-by.ics)`.
        public var label: String { String(path.split(separator: "/").last ?? Substring(path)) }
    }

    public var calendars: [Calendar] = []
    /// `--before-first-event`'s calendar, read (`firstEvent(of:zone:)`); nil without, or unreadable.
    public var firstEvent: FirstEventSchedule?
    /// `--before-first-event`'s calendar when it could not be read (its path): the alarm has no
    /// ring until it reads, which is its problem (said once), not a holiday's.
    public var unreadableEvents: String?
    /// One line per calendar that could not be read, naming it and the line at fault.
    public var problems: [String] = []

    /// Read each file once, however many alarms name it.
    public final class Cache {
        var read: [String: Result<HolidayCalendar, WakeFailure>] = [:]
        public init() {}
    }

    /// The most a calendar file may hold: a country's holidays for decades is well under this.
    public static let sizeLimit = 4 << 20

    /// How far ahead a calendar should reach: one with no day beyond it is said to run out.
    public static let reachDays = 60

    public init(calendars: [Calendar] = [], problems: [String] = []) { self.calendars = calendars; self.problems = problems }

    /// The calendars a standing alarm skips the days of, as an option's text: its own
    /// `skip-days`, else config.toml's; nil for a one-off, which rings on its own day whatever
    /// a calendar says.
    public static func paths(for alarm: StandingAlarm, config: ConfigDefaults) -> String? {
        guard alarm.days != 0 else { return nil }
        return alarm.options[AlarmOption.skipDays.name] ?? configured(config)
    }

    /// config.toml's calendars, a relative name read from the config file's directory (where
    /// `wake holidays import` writes), not from whichever directory a command runs in.
    public static func configured(_ config: ConfigDefaults) -> String? {
        guard let text = config.entry(AlarmOption.skipDays.name)?.value else { return nil }
        guard let file = config.path, let slash = file.lastIndex(of: "/") else { return text }
        let directory = String(file[..<slash])
        return AlarmOption.list(text).map { $0.hasPrefix("/") ? $0 : directory + "/" + $0 }
            .joined(separator: String(AlarmOption.listSeparator))
    }

    /// The calendars named by an option's text (`AlarmOption.list`), each read or refused.
    public static func read(_ text: String?, zone: TimeZoneRules, cache: Cache = Cache()) -> DayOffCalendars {
        var result = DayOffCalendars()
        var seen: Set<String> = []
        for path in text.map(AlarmOption.list) ?? [] where seen.insert(path).inserted {
            switch cache.read[path] ?? load(path, zone: zone) {
            case .success(let c):
                cache.read[path] = .success(c)
                result.calendars.append(Calendar(path: path, calendar: c))
            case .failure(let f):
                cache.read[path] = .failure(f)
                result.problems.append(f.message)
            }
        }
        return result
    }

    /// One file: read and parsed, or why not (a config failure, naming the file and the line).
    public static func load(_ path: String, zone: TimeZoneRules) -> Result<HolidayCalendar, WakeFailure> {
        let shown = path.printable
        let bytes: [UInt8]
        do { bytes = try RegularFile.readAll(path, limit: sizeLimit) } catch {
            return .failure(WakeFailure(.config, "--skip-days: cannot read the calendar \(error.description); give an iCalendar (.ics) file you can read"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(WakeFailure(.config, "--skip-days: calendar '\(shown)' is not UTF-8 text; export it again as an iCalendar (.ics) file"))
        }
        do { return .success(try HolidayCalendar.parse(text, zone: zone)) } catch {
            return .failure(WakeFailure(.config, "--skip-days: calendar '\(shown)' \(error.description); correct the file or export it again"))
        }
    }

    /// The holiday `date` is in one of the calendars, with the calendar's file name.
    public func dayOff(_ date: CivilDate) -> String? {
        for c in calendars {
            if let e = c.calendar.event(on: date) { return "\(e.summary) (\(c.label))" }
        }
        return nil
    }

    /// The calendars holding the days off `passed` passes over, in order, each once, as a
    /// line names them (`'/home/me/holidays.ics'`): the files to correct when no day rings.
    public func paths(holding passed: [StandingSchedule.PassedOver], zone: TimeZoneRules) -> [String] {
        var out: [String] = []
        for p in passed {
            guard case .dayOff = p.reason else { continue }
            let date = zone.localTime(at: p.instant).date
            guard let c = calendars.first(where: { $0.calendar.event(on: date) != nil }) else { continue }
            let named = "'\(c.path.printable)'"
            if !out.contains(named) { out.append(named) }
        }
        return out
    }

    /// Why a recurring alarm rings on no day in its plan (`Plan.noDayUntil`), as `wake list`,
    /// `wake doctor` and the daemon say it: `every day until Sat 3 Jan 2037 is a holiday in
    /// '/home/me/holidays.ics'`; nil when it has a day to ring.
    public func noDay(_ plan: StandingSchedule.Plan, now: Instant, zone: TimeZoneRules) -> String? {
        guard let until = plan.noDayUntil else { return nil }
        if let file = unreadableEvents { return "its calendar '\(file.printable)' cannot be read" }
        return StandingSchedule.noDayPhrase(until: until, files: paths(holding: plan.passedOver, zone: zone), now: now, zone: zone)
    }

    /// What to do about it, said after `noDay`'s line.
    public static let noDayFix = "correct the calendar (is an event's DTEND or RRULE mistyped?) or take it out of skip-days"

    /// A line for each calendar with no day beyond the next `reachDays` from `today`: one that
    /// has run out skips nothing more, and a new year's holidays may be missing.
    public func runningOut(today: CivilDate) -> [String] {
        let from = today.adding(days: Self.reachDays)
        return calendars.filter { $0.calendar.lastDay(from: from, within: 400) == nil }.map { c in
            "--skip-days: calendar '\(c.path.printable)' has no days after the next \(Self.reachDays); "
                + "the alarm will ring on every day after them: import or export a calendar that reaches further"
        }
    }
}
