/// What a hook is told: its arguments, its environment and its standard input, made from one
/// event of the event log. Nothing of wake's own environment is passed but `passed`, so a hook
/// sees the same facts whether the daemon under systemd or a one-off in a terminal runs it.
public struct HookEnvironment: Sendable, Equatable {
    /// Of wake's environment, only these reach a hook: where programs are, whose it is, and the
    /// session's bus and runtime directory (for `notify-send`, `playerctl`, `busctl --user`).
    public static let passed = ["PATH", "HOME", "USER", "LOGNAME", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"]

    /// What the session knows of an alarm beyond the event: the occurrence, the one after it,
    /// its message and its round (`--unattended`), as text.
    public struct Facts: Sendable, Equatable {
        public var occurrence: String?
        public var next: String?
        public var message: String?
        public var round: Int?
        public init(occurrence: String? = nil, next: String? = nil, message: String? = nil, round: Int? = nil) {
            self.occurrence = occurrence; self.next = next; self.message = message; self.round = round
        }
    }

    public var event: String
    public var alarm: String
    /// `NAME=value`, sorted by name: what `execve` gets.
    public var variables: [String: String]
    /// The event's line of the event log, with its newline.
    public var input: String

    /// `line` is the event's JSON object as the log writes it; `fields` its fields; `inherited`
    /// wake's own environment (only `passed` is read from it); `test`: `wake test`'s run.
    public init(event: String, alarm: String, line: String, fields: [(String, JSONValue)], facts: Facts,
                inherited: [String: String], test: Bool = false) {
        self.event = event
        self.alarm = alarm
        var v: [String: String] = [:]
        for name in Self.passed { if let value = inherited[name] { v[name] = value } }
        func field(_ name: String) -> String? {
            guard let value = fields.first(where: { $0.0 == name })?.1 else { return nil }
            switch value {
            case .string(let s): return s
            case .int(let n): return String(n)
            default: return nil
            }
        }
        v["WAKE_EVENT"] = event
        v["WAKE_ALARM"] = alarm
        if let m = facts.message ?? field("message") { v["WAKE_MESSAGE"] = m }
        if let t = facts.occurrence ?? field("occurrence") ?? field("deadline") { v["WAKE_TIME"] = t }
        if let n = facts.next { v["WAKE_NEXT"] = n }
        if event == "snoozed", let until = field("until") { v["WAKE_SNOOZE_UNTIL"] = until }
        if let by = field("by") { v["WAKE_BY"] = by == "mpris" || by == "dbus" ? field("caller_program").map { "\(by):\($0)" } ?? by : by }
        if let round = facts.round ?? field("round").flatMap({ Int($0) }) { v["WAKE_ROUND"] = String(round) }
        if test { v["WAKE_TEST"] = "1" }
        variables = v
        input = line
    }

    /// `execve`'s environment: `NAME=value`, sorted.
    public var entries: [String] { variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } }
}
