import WakeCore
import WakeSystem

/// `--before-first-event`'s calendar, read from its file with the holiday calendars' reader
/// (`DayOffCalendars.load`'s limits and refusals) and the zones its `TZID`s name from the
/// system's zone files. `wake add` refuses one it cannot use (exit 78, naming the file and the
/// line); the daemon, `wake list` and the others read it at every reload through
/// `AlarmDaysOff`, and an alarm whose calendar no longer reads is not armed, and said.
extension DayOffCalendars {
    /// What the daemon does meanwhile, said after the problem.
    public static let eventsMeanwhile = "; the alarm is not armed until the calendar reads again"

    /// The alarm's first-event schedule, or why there is none; nil for an alarm without the option.
    public static func firstEvent(of alarm: StandingAlarm, zone: TimeZoneRules) -> Result<FirstEventSchedule, WakeFailure>? {
        guard alarm.days != 0, let path = alarm.options[AlarmOption.beforeFirstEvent.name] else { return nil }
        let flag = AlarmOption.beforeFirstEvent.flag
        guard let text = alarm.options[AlarmOption.lead.name], case .success(.duration(let lead)) = AlarmOption.lead.parse(text) else {
            return .failure(WakeFailure(.config, "\(flag): no valid --lead stored; remove the alarm and add it again with --lead, "
                                        + "as --lead 90m"))
        }
        let shown = path.printable
        let bytes: [UInt8]
        do { bytes = try RegularFile.readAll(path, limit: sizeLimit) } catch {
            return .failure(WakeFailure(.config, "\(flag): cannot read the calendar \(error.description); "
                                        + "give an iCalendar (.ics) file you can read"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(WakeFailure(.config, "\(flag): calendar '\(shown)' is not UTF-8 text; "
                                        + "export it again as an iCalendar (.ics) file"))
        }
        let zones: (String) -> TimeZoneRules? = { name in
            let found = ZoneLoader.local(tz: name, localtime: ZoneLoader.systemLocaltime, zoneDirectory: ZoneLoader.zoneDirectory)
            return found.warning == nil && !name.isEmpty ? found.zone : nil
        }
        do {
            let calendar = try EventCalendar.parse(text, zones: zones)
            return .success(FirstEventSchedule(calendar: calendar, lead: lead, label: String(path.split(separator: "/").last ?? "")))
        } catch {
            return .failure(WakeFailure(.config, "\(flag): calendar '\(shown)' \(error.description); correct the file or export it again"))
        }
    }
}
