/// The status line drawn in place while waiting: "alarm 07:00:00 | in 7h 12m 28s | now 23:47:32".
///
/// Redrawn every second with a carriage return, it must never reach the last column: a line
/// that wraps (or that fills the row, on terminals that then wrap at the next character)
/// scrolls a new line every second. So it takes the longest of a few forms, most to least
/// informative, that fits in `width - 1` columns, and is cut as a last resort.
public enum StatusLine {
    /// The line for a terminal `width` columns wide; a width of 0 or less, or nil (not known),
    /// gives the full form. Never longer than `width - 1` characters otherwise.
    ///
    /// - Parameters:
    ///   - label: what is awaited, "alarm" or "snoozed until" (escaped here: it may be user text).
    ///   - deadline: the deadline's clock time, "07:00:00".
    ///   - remaining: the time left; shown rounded up to the second, as `Formatting.span`.
    ///   - now: the current clock time, "23:47:32".
    public static func render(label: String, deadline: String, remaining: Duration, now: String, width: Int?) -> String {
        let forms = candidates(label: TerminalText.escape(label), deadline: TerminalText.escape(deadline),
                               remaining: remaining, now: TerminalText.escape(now))
        guard let width, width > 0 else { return forms[0] }
        let room = width - 1
        if let fit = forms.first(where: { $0.count <= room }) { return fit }
        // Nothing fits (a column or two): cut, and say so, rather than show a number that
        // reads as a different time.
        guard room > 1 else { return room == 1 ? "…" : "" }
        return String(forms[forms.count - 1].prefix(room - 1)) + "…"
    }

    /// Every form, longest first.
    static func candidates(label: String, deadline: String, remaining: Duration, now: String) -> [String] {
        let left = Formatting.span(remaining)  // "7h 12m 28s"
        let compact = left.replacingSpaces()  // "7h12m28s"
        // Coarser: the two largest units ("7h12m"), then the largest alone ("7h"); both round
        // down once the seconds are rounded up, so they never promise more time than is left.
        let wait = Formatting.waitSpan(remaining)
        let two = wait.map { $0.replacingSpaces() } ?? "0s"
        let one = wait.map { String($0.prefix { $0 != " " }) } ?? "0s"
        return [
            localized("{label} {time} | in {span} | now {now}", label, deadline, left, now),
            localized("{label} {time} | in {span}", label, deadline, left),
            localized("{time} | in {span}", deadline, left),
            localized("{time} in {span}", deadline, compact),
            compact,
            two,
            one,
        ]
    }
}

extension String {
    fileprivate func replacingSpaces() -> String { String(filter { $0 != " " }) }
}
