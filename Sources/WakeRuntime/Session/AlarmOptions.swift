import WakeCore
import WakeSystem

/// What the command line asked for, checked: every value is known good before the alarm is armed.
public struct AlarmOptions {
    public var whenText: String
    public var spec: WakeSpec
    public var dryRun: Bool
    public var quiet: Bool
    public var ring: RingSettings
    public var eventsPath: String?
    public var unpaced: Bool
    public var inhibit: InhibitMode
    /// `--wake-system` (require), `--no-wake-system` (off), or neither (auto: the RTC wherever it works).
    public var wakeSystem: WakeSystemSupport.Mode
    public var notify: NotifyMode
    /// The config file read, and the options the command line gave: where each setting came from.
    public var config = ConfigDefaults()
    public var given: Set<String> = []
    /// `wake sleep`: the "alarm" is a sleep sound that rings now and fades away; every key ends it.
    public var sleep: SleepTimer?

    /// ` (from the command line)`, ` (from PATH line 3)`, or nothing for built-in defaults.
    public func source(_ keys: [String]) -> String {
        let sources = keys.compactMap { config.source(of: $0, given: given) }
        return sources.isEmpty ? "" : " (" + Array(Set(sources)).sorted().joined(separator: "; ") + ")"
    }

    public enum InhibitMode: String, CaseIterable { case auto, require, off }
    public enum NotifyMode: String, CaseIterable { case auto, require, off }

    /// Checks what the command line gave: WHEN as its words (`7:30 pm` may come as two).
    public init(when words: [String], dryRun: Bool, quiet: Bool, ring: RingSettings, events: String?, unpaced: Bool,
                inhibit: String, wakeSystem: Bool, noWakeSystem: Bool = false, notify: String) throws(WakeFailure) {
        func usage(_ m: String) -> WakeFailure { WakeFailure(.usage, m) }
        guard !words.isEmpty else {
            throw usage("missing WHEN: say when to ring, as 'wake 07:00'; \(WakeSpec.acceptedForms)")
        }
        whenText = words.joined(separator: " ")
        do { spec = try WakeSpec(parsing: words) } catch { throw usage(error.description) }
        self.dryRun = dryRun
        self.quiet = quiet
        self.ring = ring
        if let e = events, e.isEmpty { throw usage("--events: empty path; give a file, or '-' for stdout") }
        eventsPath = events
        self.unpaced = unpaced
        self.inhibit = try AlarmOptions.inhibitMode(inhibit)
        self.wakeSystem = try WakeSystemPlan.mode(wakeSystem: wakeSystem, noWakeSystem: noWakeSystem)
        self.notify = try AlarmOptions.notifyMode(notify)
    }

    public static func inhibitMode(_ text: String) throws(WakeFailure) -> InhibitMode { try mode(text, option: "inhibit") }

    public static func notifyMode(_ text: String) throws(WakeFailure) -> NotifyMode { try mode(text, option: "notify") }

    /// `auto`, `require` or `off`, as `--OPTION` takes it.
    public static func mode<Mode: RawRepresentable & CaseIterable>(_ text: String, option: String) throws(WakeFailure) -> Mode where Mode.RawValue == String {
        guard let mode = Mode(rawValue: text) else {
            let names = Mode.allCases.map(\.rawValue)
            throw WakeFailure(.usage, "--\(option): invalid mode '\(text.printable)'; use \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")")
        }
        return mode
    }
}
