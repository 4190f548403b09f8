/// What hooks run on, and one `--hook EVENT=COMMAND`: the event it is for and the program's
/// words. A command is split into words here, with single and double quotes and backslashes as
/// a shell reads them, and run directly: never through a shell unless its first word is one
/// (`sh -c '...'`), so a message or a name in the environment is never code.
public struct HookCommand: Sendable, Hashable {
    /// The events of the event log that hooks run on, in the order an alarm's morning has them.
    /// The rest of the log (devices, mixers, clock steps) is for reading, not for lamps.
    public static let events = ["armed", "notice", "sunrise", "pre_ringing", "pre_stopped", "ringing", "unanswered", "snoozed",
                                "check_up_set", "check_up", "check_up_unanswered", "stopped", "up_already", "cancelled",
                                "timed_out", "missed", "skipped", "error", "silent", "bedtime_check", "bedtime"]
    public static let eventSet = Set(events)
    /// `--hook all=COMMAND`: every event above.
    public static let every = "all"

    /// An event of `events`, or `every`.
    public var event: String
    public var words: [String]
    /// The text as given (`ringing=curl -s ...`): what is stored, and what messages name.
    public var text: String

    /// Why a text is not a hook: one line, without the option's name.
    public struct Problem: Error, Sendable, Equatable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    public func runs(on event: String) -> Bool { self.event == Self.every || self.event == event }

    /// `ringing=brightnessctl set 100%`, or the one line saying why it is not one (without the option's name).
    public static func parse(_ text: String) -> Result<HookCommand, Problem> {
        guard let eq = text.firstIndex(of: "=") else {
            return .failure(Problem("'\(text.printable)' is not EVENT=COMMAND; give an event and a command, "
                                    + "as ringing=\"playerctl pause\""))
        }
        let event = String(text[..<eq])
        guard event == every || eventSet.contains(event) else {
            return .failure(Problem("unknown event '\(event.printable)'; use one of \(events.joined(separator: ", ")) or \(every)"))
        }
        switch split(String(text[text.index(after: eq)...])) {
        case .failure(let why): return .failure(why)
        case .success(let words):
            guard !words.isEmpty else { return .failure(Problem("'\(text.printable)' has no command after '='; give the program to run")) }
            return .success(HookCommand(event: event, words: words, text: text))
        }
    }

    /// The words of a command line, as a POSIX shell splits them without expanding anything.
    static func split(_ line: String) -> Result<[String], Problem> {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in line {
            if escaped {
                // Inside double quotes a backslash escapes only what is special there.
                if quote == "\"" && !"\"\\$`".contains(c) { word.append("\\") }
                word.append(c); escaped = false; inWord = true; continue
            }
            switch (quote, c) {
            case (nil, "\\"), ("\"", "\\"): escaped = true; inWord = true
            case (nil, "'"), (nil, "\""): quote = c; inWord = true
            case ("'", "'"), ("\"", "\""): quote = nil
            case (nil, " "), (nil, "\t"):
                if inWord { words.append(word); word = ""; inWord = false }
            case (_, "\n"), (_, "\0"):
                return .failure(Problem("the command holds a line break or a NUL; give one line"))
            default: word.append(c); inWord = true
            }
        }
        if quote != nil || escaped { return .failure(Problem("the command '\(line.printable)' ends inside a quote; close it")) }
        if inWord { words.append(word) }
        return .success(words)
    }
}
