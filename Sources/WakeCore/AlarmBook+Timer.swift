/// alarms.toml's fields for an alarm at an instant and for a timer (`at`, `timer`, `remaining`,
/// `repeat`; the header documents them), read and written beside the others.
extension AlarmBook.Draft {
    mutating func setTimed(_ key: String, _ s: String, fail: (String) -> AlarmBook.ParseError) throws(AlarmBook.ParseError) {
        func span(_ s: String) throws(AlarmBook.ParseError) -> Duration {
            guard let d = try? DurationText.parse(s), d > .zero, d <= StandingTimer.longest else {
                throw fail("\(key) must be a span such as \"4m\" or \"1h30m\" (up to 366d), not \"\(s.printable)\"")
            }
            return d
        }
        switch key {
        case "at":
            guard let t = TOMLSubset.instant(s) else {
                throw fail("at must be a UTC time such as \"2026-12-03T16:25:00Z\", not \"\(s.printable)\"")
            }
            at = t
        case "timer": timer.span = try span(s)
        case "remaining": timer.remaining = try span(s)
        default:
            guard s == "true" || s == "false" else { throw fail("repeat must be \"true\" or \"false\", not \"\(s.printable)\"") }
            timer.repeats = s == "true"
        }
    }

    /// The instant and the timer read, checked together (a line of the table's start when wrong).
    func timed() throws(AlarmBook.ParseError) -> (at: Instant?, timer: StandingTimer?) {
        func fail(_ m: String) -> AlarmBook.ParseError { AlarmBook.ParseError(line: line, message: "alarm '\(name)' " + m) }
        if at != nil, days != 0 || date != nil { throw fail("has at with days or a date: at rings once; keep one") }
        guard let span = timer.span else {
            if timer.remaining != nil || timer.repeats { throw fail("has remaining or repeat without timer = \"SPAN\"") }
            return (at, nil)
        }
        if days != 0 || date != nil { throw fail("is a timer with days or a date: leave them out") }
        switch (at, timer.remaining) {
        case (nil, nil): throw fail("is a timer with neither at (running) nor remaining (paused): give one")
        case (.some, .some): throw fail("is a timer with both at (running) and remaining (paused): keep one")
        default: return (at, StandingTimer(span: span, remaining: timer.remaining, repeats: timer.repeats))
        }
    }
}

extension AlarmBook {
    /// `at`, `timer`, `remaining` and `repeat`, for the alarms that have them.
    static func putTimed(_ a: StandingAlarm, _ put: (String) -> Void) {
        if let at = a.at { put("at = \"" + TOMLSubset.instantText(at) + "\"\n") }
        guard let t = a.timer else { return }
        put("timer = \"" + DurationText.format(t.span) + "\"\n")
        if let r = t.remaining { put("remaining = \"" + DurationText.format(r) + "\"\n") }
        if t.repeats { put("repeat = \"true\"\n") }
    }
}
