import WakeCore
import WakeSystem

extension Doctor {
    /// A notification server on the session bus, and whether it shows buttons (Stop, Snooze).
    /// `absentIsNews` false: no server answering is no finding (the daemon's `--notify auto`, for
    /// which a session without one is no news).
    static func notificationFindings(config: ConfigDefaults, absentIsNews: Bool = true) -> [DoctorFinding] {
        let mode = config.layered(.notify, over: AlarmOption.notify.defaultText ?? "auto", given: [])
        if mode == "off" {
            return [DoctorFinding(.notifications, "notifications.server", .pass,
                                  localized("notify = \"off\": the alarms show no notification"))]
        }
        do {
            let info = try NotificationBus.probe(timeout: .seconds(1))
            let server = "'\(info.name.printable)' \(info.version.printable)"
            if info.hasActions {
                return [DoctorFinding(.notifications, "notifications.server", .pass,
                                      localized("the notification server {server} shows the alarms with Stop and Snooze buttons", server))]
            }
            return [DoctorFinding(.notifications, "notifications.server", .warn,
                                  localized("""
                                      the notification server {server} shows no buttons (no 'actions' capability): a ringing alarm \
                                      cannot be stopped from its notification
                                      """, server),
                                  fix: localized("""
                                      stop and snooze with a key, 'wake stop' or 'wake snooze'; a desktop's own notification server \
                                      (GNOME, KDE, dunst, mako) has buttons
                                      """))]
        } catch {
            guard absentIsNews else { return [] }
            return [DoctorFinding(.notifications, "notifications.server", .warn,
                                  localized("""
                                      no notification server answers on the daemon's session bus ({reason}): \
                                      the alarms ring without a notification
                                      """, error.description.printable),
                                  fix: localized("""
                                      start the desktop's notification server, or set notify = "off" in config.toml \
                                      to say you do not want one
                                      """))]
        }
    }
}
