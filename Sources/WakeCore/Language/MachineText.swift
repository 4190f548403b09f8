/// What programs read (`--json`, the D-Bus API's texts) is written in English and the 24-hour
/// clock whatever the reader's language and clock, so a script sees the same words everywhere.
public enum MachineText {
    /// `body` with no catalogue and the 24-hour clock bound.
    public static func written<R, Failure: Error>(_ body: () throws(Failure) -> R) throws(Failure) -> R {
        let result: Result<R, Failure> = MessageCatalogue.$current.withValue(nil) {
            ClockStyle.$current.withValue(.twentyFourHour) { Result { () throws(Failure) -> R in try body() } }
        }
        return try result.get()
    }
}
