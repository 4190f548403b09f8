import WakeCore

/// swift-argument-parser's usage errors, which it writes in English, in the reader's language:
/// the few a person meets first are recognised by their fixed words and said again through the
/// catalogue; any other stays as the parser wrote it.
enum ParserMessages {
    static func translated(_ message: String) -> String {
        guard MessageCatalogue.current != nil else { return message }
        if let (option, suggestion) = quoted(message, "Unknown option '", "'. Did you mean '", "'?") {
            return localized("Unknown option '{option}'. Did you mean '{suggestion}'?", option, suggestion)
        }
        if let (option, _) = quoted(message, "Unknown option '", nil, "'") { return localized("Unknown option '{option}'", option) }
        if let (argument, _) = quoted(message, "Missing expected argument '", nil, "'") {
            return localized("Missing expected argument '{argument}'", argument)
        }
        if let (option, _) = quoted(message, "Missing value for '", nil, "'") { return localized("Missing value for '{option}'", option) }
        if let (argument, _) = quoted(message, "Unexpected argument '", nil, "'") {
            return localized("Unexpected argument '{argument}'", argument)
        }
        return message
    }

    /// The one or two quoted values of `message` when it is `head` value (`middle` value) `tail`.
    static func quoted(_ message: String, _ head: String, _ middle: String?, _ tail: String) -> (String, String)? {
        guard message.hasPrefix(head), message.hasSuffix(tail), message.count >= head.count + tail.count else { return nil }
        let inner = String(message.dropFirst(head.count).dropLast(tail.count))
        guard let middle else { return inner.contains("'") ? nil : (inner, "") }
        guard let r = inner.firstRange(of: middle) else { return nil }
        return (String(inner[..<r.lowerBound]), String(inner[r.upperBound...]))
    }
}
