/// How a one-off alarm (`wake 07:00` in a terminal, which has no name of its own) is named where
/// a name is needed: its object in the daemon's D-Bus API and its hooks' `WAKE_ALARM`. `pid:PID`,
/// by the process that rings it (as `wake stop PID` knows it), which no standing alarm's name can
/// be (those are a-z, 0-9, `-` and `_`), so the two never meet.
public enum OneOffName {
    public static func of(pid: Int32) -> String { "pid:\(pid)" }

    /// The PID a one-off's name holds; nil for any other name.
    public static func pid(in name: String) -> Int32? {
        guard name.hasPrefix("pid:") else { return nil }
        let digits = name.dropFirst(4)
        guard let pid = Int32(digits), pid > 0, String(pid) == digits else { return nil }
        return pid
    }
}
