/// What programs read (`--json`, the D-Bus API's texts) is written in English and the 24-hour
/// clock whatever the reader's language and clock, so a script sees the same words everywhere.
public enum MachineText {
    /// `body` with no catalogue and (unless `keepingClock`) the 24-hour clock bound. `wake next
    /// --json` keeps the reader's clock in its `text`, the line a status bar shows.
    public static func written<R, Failure: Error>(keepingClock: Bool = false, _ body: () throws(Failure) -> R) throws(Failure) -> R {
        let clock = keepingClock ? ClockStyle.current : .twentyFourHour
        let result: Result<R, Failure> = MessageCatalogue.$current.withValue(nil) {
            ClockStyle.$current.withValue(clock) { Result { () throws(Failure) -> R in try body() } }
        }
        return try result.get()
    }
}
