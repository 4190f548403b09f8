import WakeCore
import WakeSystem

extension ArmChecks {
    /// `--hook`s (and config.toml's `hook`): each program found on PATH and safe to run, by the
    /// dispatcher's own check (`HookFolder.program`). A one-off and `wake add` refuse a typo'd or
    /// unsafe program before the wait (64), as any bad value; the daemon does not call this: its
    /// dispatcher says a refused hook when the event comes, and `wake doctor` lists it.
    public static func hooks(_ settings: RingSettings, path: String? = HookFolder.inheritedEnvironment()["PATH"]) throws(WakeFailure) {
        for command in settings.hooks.commands {
            if case .refused(let why) = HookFolder.program(of: command, path: path) { throw WakeFailure(.usage, why) }
        }
    }
}
