import WakeCore
@testable import WakeSystem

extension ZoneLoader {
    /// A zone by name (`Europe/Berlin`), absolute TZif path, or POSIX rule; nil when there is none.
    /// The tests' own: wake itself only loads the zones `TZ` and /etc/localtime name.
    static func zone(named spec: String) -> TimeZoneRules? {
        try? load(named: spec, zoneDirectory: zoneDirectory).get()
    }
}
