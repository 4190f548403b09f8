/// Named dates as an iCalendar file (RFC 5545) that `HolidayCalendar` and calendar programs
/// read: one all-day `VEVENT` per date, CRLF line ends, TEXT escaped, lines folded at 75 octets.
/// Pure: the dates, their names and the time stamp in, the file's text out.
public enum HolidayCalendarWriter {
    public struct Day: Equatable, Sendable {
        public var date: CivilDate
        public var name: String
        public init(date: CivilDate, name: String) { self.date = date; self.name = name }
    }

    /// RFC 5545's limit on a content line, CRLF not counted (section 3.1).
    public static let lineOctets = 75
    public static let productID = "-//wake//wake holidays import//EN"

    /// The calendar of `days` (in date order, one event per date: two names on one date become
    /// one summary, as python3-holidays itself joins them; invalid dates left out).
    /// `title` names the calendar in calendar programs; `source` makes each event's UID
    /// (`holiday-20261225-de-by@wake`), the same at every import, so a program that imported the
    /// file before updates its events instead of doubling them. `stamp` is when it was made.
    public static func text(_ days: [Day], title: String, source: String, stamp: Instant) -> String {
        var names: [CivilDate: [String]] = [:]
        for day in days where day.date.isValid {
            let name = day.name.isEmpty ? "Holiday" : day.name
            if names[day.date]?.contains(name) != true { names[day.date, default: []].append(name) }
        }
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:" + productID, "CALSCALE:GREGORIAN", "X-WR-CALNAME:" + escaped(title)]
        let dtstamp = "DTSTAMP:" + utcStamp(stamp)
        for date in names.keys.sorted() {
            lines += ["BEGIN:VEVENT",
                      "UID:holiday-\(basic(date))-\(source)@wake",
                      dtstamp,
                      "DTSTART;VALUE=DATE:" + basic(date),
                      "DTEND;VALUE=DATE:" + basic(date.nextDay),
                      "SUMMARY:" + escaped(names[date, default: []].joined(separator: ", ")),
                      // A holiday does not make anyone busy: a calendar program's free/busy stays free.
                      "TRANSP:TRANSPARENT",
                      "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        var out = ""
        for line in lines { out += folded(line) + "\r\n" }
        return out
    }

    /// A TEXT value (RFC 5545 3.3.11): `\` `;` `,` escaped, a line break (CR, LF, CRLF, U+2028,
    /// U+2029) as `\n`; other control characters become a space: TEXT may not hold C0 controls,
    /// and C1 controls are never part of a name (U+009B acts on a terminal). A tab too: a
    /// combining mark after a tab starts a character of its own, which `folded` could put after
    /// a continuation's space, where it would join that space.
    public static func escaped(_ text: String) -> String {
        var out = ""
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\\", ";", ",": out += "\\"; out.unicodeScalars.append(scalar)
            case "\r": out += "\\n"
            case "\n": if !afterCR { out += "\\n" }
            case "\u{2028}", "\u{2029}": out += "\\n"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}": out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `line` folded (RFC 5545 3.1): no physical line over 75 octets, each continuation starting
    /// with a space. It breaks between characters, never inside one: a UTF-8 sequence split in two
    /// is invalid text, and a combining mark moved after the space would join it into one
    /// character a reader could not unfold. Only a character longer than a line by itself is
    /// broken, between its scalars.
    public static func folded(_ line: String) -> String {
        var out = ""
        var room = lineOctets
        func put(_ piece: String, octets: Int) {
            if octets > room {
                out += "\r\n "
                room = lineOctets - 1
            }
            out += piece
            room -= octets
        }
        for character in line {
            let octets = character.utf8.count
            if octets <= lineOctets - 1 {
                put(String(character), octets: octets)
            } else {
                for scalar in character.unicodeScalars { put(String(scalar), octets: scalar.utf8.count) }
            }
        }
        return out
    }

    /// `20261225`
    static func basic(_ date: CivilDate) -> String {
        String(date.year).leftPadded(to: 4) + String(date.month).leftPadded(to: 2) + String(date.day).leftPadded(to: 2)
    }

    /// `20261128T022427Z`
    static func utcStamp(_ instant: Instant) -> String {
        let t = LocalDateTime(secondsAsIfUTC: instant.seconds)
        return basic(t.date) + "T" + [t.hour, t.minute, t.second].map { String($0).leftPadded(to: 2) }.joined() + "Z"
    }
}
