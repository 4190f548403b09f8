/// The reader's language for the texts a person reads (the ring and snooze lines, the
/// notification, list and next, the status bar, the doctor, the usage errors met first): a
/// lookup from the English text to its translation, GNU gettext's catalogue at the edge
/// (`GettextCatalogue`). Machine outputs (`--json`, `--events`, the API, the files) and the
/// exit codes never go through it.
///
/// Bound for a command's run (`$current.withValue`), as `ClockStyle` is, so threads and the
/// in-process tests each read their own; nothing bound, or a text it lacks, reads as English.
public struct MessageCatalogue: Sendable {
    let lookup: @Sendable (String) -> String?

    public init(lookup: @escaping @Sendable (String) -> String?) { self.lookup = lookup }

    @TaskLocal public static var current: MessageCatalogue?

    /// A catalogue of `translations` (English text to translated), for tests.
    public static func table(_ translations: [String: String]) -> MessageCatalogue {
        MessageCatalogue { translations[$0] }
    }
}

/// The text `message` in the reader's language, its placeholders filled: `message` is the
/// English text, a literal (so `po/wake.pot` can be made from the code: `TranslationTemplateTests`),
/// naming each value in braces (`"snoozed until {time}"`); `values` fill those names in the order
/// they first appear in `message`. A translation may place them in another order. A name without
/// a value, or a brace that names none, is left as it is written.
public func localized(_ message: StaticString, _ values: String...) -> String {
    let english = message.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    let text = MessageCatalogue.current?.lookup(english) ?? english
    guard !values.isEmpty else { return text }
    var byName: [Substring: String] = [:]
    for (name, value) in zip(MessagePlaceholders.names(in: english), values) { byName[name] = value }
    return MessagePlaceholders.fill(text, with: byName)
}

/// The `{name}` placeholders of a message: a name is letters, digits and `_`.
public enum MessagePlaceholders {
    /// Each name once, in the order it first appears.
    public static func names(in text: String) -> [Substring] {
        var seen: [Substring] = []
        for range in ranges(in: text) {
            let name = text[text.index(after: range.lowerBound)..<text.index(before: range.upperBound)]
            if !seen.contains(name) { seen.append(name) }
        }
        return seen
    }

    static func fill(_ text: String, with values: [Substring: String]) -> String {
        var out = ""
        var rest = text.startIndex
        for range in ranges(in: text) {
            let name = text[text.index(after: range.lowerBound)..<text.index(before: range.upperBound)]
            guard let value = values[name] else { continue }
            out += text[rest..<range.lowerBound]
            out += value
            rest = range.upperBound
        }
        return out + text[rest...]
    }

    static func ranges(in text: String) -> [Range<String.Index>] {
        var found: [Range<String.Index>] = []
        var i = text.startIndex
        while let open = text[i...].firstIndex(of: "{") {
            let after = text.index(after: open)
            guard let close = text[after...].firstIndex(where: { !($0.isLetter || $0.isNumber || $0 == "_") }) else { break }
            if text[close] == "}", close > after {
                found.append(open..<text.index(after: close))
                i = text.index(after: close)
            } else {
                i = after
            }
        }
        return found
    }
}
