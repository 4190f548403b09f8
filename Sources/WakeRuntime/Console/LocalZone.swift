import WakeCore
import WakeSystem

extension Console {
    /// The machine's zone (TZ, else /etc/localtime), its warning said here: every command that
    /// shows a local time reads it so, and says once why it fell back to UTC.
    func localZone() -> TimeZoneRules {
        let (zone, warning) = ZoneLoader.local()
        if let warning { error("warning: " + warning) }
        return zone
    }
}
