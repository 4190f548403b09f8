/// The note an alarm carries (`--message "Dentist at 9"`, `message =` in alarms.toml): checked
/// once, by one rule, wherever it comes from, and shown escaped wherever it goes.
public enum AlarmMessage {
    /// The most characters a message may have: one line on a phone-sized notification, and
    /// room left for the time on an 80-column terminal line most of the time.
    public static let limit = 120

    /// Why `text` cannot be a message, or nil when it can.
    public static func problem(_ text: String) -> String? {
        if text.allSatisfy(\.isWhitespace) {
            return "empty message; give a few words, as --message 'Dentist at 9', or leave the option out"
        }
        let count = text.count
        if count > limit {
            return "the message has \(count) characters, more than the limit of \(limit); shorten it"
        }
        return nil
    }

    /// `: Dentist at 9` to end a console line with, escaped; nothing without a message.
    public static func suffix(_ message: String?) -> String {
        guard let message else { return "" }
        return ": " + TerminalText.escape(message)
    }
}
