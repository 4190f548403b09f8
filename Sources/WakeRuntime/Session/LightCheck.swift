import WakeCore
import WakeSystem

/// `--light`'s checks: at arm time, whether the screen can be lit (a warning, never a refusal:
/// the alarm rings without light), and whether the sunrise fits in the wait; at every start,
/// a backlight a dead wake left lit put back.
public enum LightCheck {
    /// Where the light would go: the device and the session that sets it, or why there is none.
    public enum Path {
        case lit(Backlight, session: String)
        case dark(String)
    }

    /// Asks the machine now: the preferred backlight, and the user's session on a seat.
    public static func path() -> Path {
        guard let device = Backlight.preferred() else {
            return .dark(localized("no backlight under {directory} (an external monitor has none wake can set)", Backlight.directory))
        }
        switch SessionBrightness.seatSession() {
        case .failure(let why):
            return .dark(localized("the backlight '{device}' cannot be set: {reason}", device.name.printable, why.description))
        case .success(let session): return .lit(device, session: session)
        }
    }

    /// The arm-time warning for `plan`, or nil when the screen can be lit.
    public static func warning(_ plan: LightPlan?) -> String? {
        guard let plan, case .dark(let why) = path() else { return nil }
        return "warning: " + localized("--light {plan}: {reason}; the alarm rings without light", plan.text, why)
    }

    /// A sunrise longer than the wait would start part-way: refused (64) when a one-off's command
    /// line gave it; from config.toml, or a standing alarm's first ring (the next are whole),
    /// said, and it starts where it stands.
    public static func sunrise(_ settings: RingSettings, wait: Duration, given: Set<String>, standing: Bool = false,
                               console: Console) throws(WakeFailure) {
        guard let sunrise = settings.light?.sunrise, wait < sunrise else { return }
        let left = Formatting.span(max(.seconds(1), wait))
        let line = "--light \(settings.text(.light)?.printable ?? ""): the sunrise of \(DurationText.format(sunrise)) is longer "
            + "than the wait (\(left))"
        if given.contains(AlarmOption.light.flag) && !standing {
            throw WakeFailure(.usage, line + "; give a sunrise of \(left) or less, or set the alarm later")
        }
        console.error("note: " + line + (standing ? "; the first ring's starts part-way, the next rings' are whole"
                                                  : " (config.toml's light); it starts part-way"))
    }

    /// At the start of every command: a backlight a dead wake left lit is put back, each said in
    /// one line on stderr. A directory read when there is nothing to do.
    public static func restoreLeftovers() {
        guard let directory = MixerStateStore.directory() else { return }
        let console = Console(quiet: false)
        for line in LightStateStore.restoreLeftovers(in: directory) { console.error(line) }
    }
}
