import WakeCore
import WakeSystem

extension ArmChecks {
    /// `--hook`s (and config.toml's `hook`): each program found on PATH and safe to run, by the
    /// dispatcher's own check (`HookFolder.program`). A one-off and `wake add` refuse a typo'd or
    /// unsafe program before the wait (64), as any bad value, or a config error (78) naming the
    /// file and line when the hooks came from config.toml (`given` lacks `--hook`); the daemon
    /// does not call this: its dispatcher says a refused hook when the event comes, and `wake
    /// doctor` lists it.
    public static func hooks(_ settings: RingSettings, config: ConfigDefaults, given: Set<String>,
                             path: String? = HookFolder.inheritedEnvironment()["PATH"]) throws(WakeFailure) {
        let option = AlarmOption.hook
        for command in settings.hooks.commands {
            guard case .refused(let why) = HookFolder.program(of: command, path: path) else { continue }
            if !given.contains(option.flag), let entry = config.entry(option.name), let file = config.path {
                throw WakeFailure(.config, "config file '\(file.printable)' line \(entry.line), \(option.name): \(why)")
            }
            throw WakeFailure(.usage, why)
        }
    }
}
