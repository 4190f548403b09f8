/// The words `wake list`, `stop`, `snooze` and `cancel` exchange with a running wake over its
/// control socket. Lines of text, because a person debugging with `socat` can read them; every
/// value percent-escaped, because names and paths come from users and must never split a line
/// or a field. Both ends are wake, but a server treats every byte as hostile: a request is at
/// most `maxRequest` bytes, one line, with a fixed vocabulary.
public enum ControlProtocol {
    /// The first word of every request, so a future wake can tell an old client.
    public static let version = "wake/1"
    /// The longest request line, newline included.
    public static let maxRequest = 256
    /// The longest ID a request may name (a standing alarm's name is at most 32, a PID 10).
    public static let maxID = 64
}

/// A request: one line, `wake/1 VERB [ID] [LENGTH]`. LENGTH, for `snooze` only, is
/// `for=MS` (a span in milliseconds), `until=NS` (a wall-clock instant, nanoseconds since the
/// epoch: the client resolves `--until 07:40` in its zone, as it resolves a `wake 07:40`) or
/// `for=long` (`--snooze-long`); without it, the alarm's own snooze.
public enum ControlRequest: Equatable, Sendable {
    /// Every alarm this process holds.
    case list
    /// A command for one alarm by ID, or for every alarm it applies to; `length` is how long a
    /// snooze lasts (ignored by the other commands).
    case command(AlarmCommand, id: String?, length: SnoozeLength = .standard)
    /// `wake sleep +15m`: a sleep timer plays this much longer (`wake/1 extend for=MS`); the
    /// alarms ignore it.
    case extendSleep(Duration)

    /// The line a client sends, newline included.
    public var line: String {
        switch self {
        case .list: return "\(ControlProtocol.version) list\n"
        case .extendSleep(let d): return "\(ControlProtocol.version) extend for=\(d.milliseconds)\n"
        case .command(let c, let id, let length):
            var words = [ControlProtocol.version, c.rawValue]
            if let id { words.append(id) }
            if c == .snooze, let field = Self.field(length) { words.append(field) }
            return words.joined(separator: " ") + "\n"
        }
    }

    private static func field(_ length: SnoozeLength) -> String? {
        switch length {
        case .standard: return nil
        case .long: return "for=long"
        case .span(let d): return "for=\(d.milliseconds)"
        case .until(let t): return "until=\(t.nanoseconds)"
        }
    }

    /// Reads one request line (without its newline). Throws, with a reason fit for a reply,
    /// on anything else.
    public init(parsing bytes: some Collection<UInt8>) throws(ControlProtocolError) {
        guard bytes.count < ControlProtocol.maxRequest else { throw ControlProtocolError("request too long") }
        // Printable ASCII only: an ID is a PID or a standing alarm's name.
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw ControlProtocolError("request is not printable ASCII") }
        let words = String(decoding: bytes, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        guard words.first == Substring(ControlProtocol.version) else { throw ControlProtocolError("unknown protocol; expected \(ControlProtocol.version)") }
        var rest = words.dropFirst()
        guard let verb = rest.first else { throw ControlProtocolError("missing verb") }
        // `=` is never in an ID: a last word holding one is the snooze's length.
        var lengthField: Substring?
        if rest.count > 1, let last = rest.last, last.contains("=") {
            lengthField = last
            rest = rest.dropLast()
        }
        let id = rest.dropFirst().first.map(String.init)
        guard rest.count <= 2 else { throw ControlProtocolError("too many words") }
        if let id {
            guard !id.isEmpty, id.count <= ControlProtocol.maxID, id.unicodeScalars.allSatisfy(Self.isIDCharacter) else {
                throw ControlProtocolError("invalid alarm ID")
            }
        }
        var length = SnoozeLength.standard
        if let lengthField {
            guard verb == "snooze" || verb == "extend" else { throw ControlProtocolError("only snooze takes a length") }
            length = try Self.length(lengthField)
        }
        switch verb {
        case "list":
            guard id == nil else { throw ControlProtocolError("list takes no ID") }
            self = .list
        case "stop": self = .command(.stop, id: id)
        case "snooze": self = .command(.snooze, id: id, length: length)
        case "cancel":
            guard id != nil else { throw ControlProtocolError("cancel needs an ID") }
            self = .command(.cancel, id: id)
        case "extend":
            guard id == nil, case .span(let d) = length else { throw ControlProtocolError("extend takes for=MS alone") }
            self = .extendSleep(d)
        default:
            throw ControlProtocolError("unknown verb")
        }
    }

    /// `for=MS`, `for=long` or `until=NS`, digits as a client writes them (no sign, no leading
    /// zero); a span must be more than zero and at most `SnoozeLength.longest`, as the client
    /// checked (a server believes no client).
    static func length(_ field: Substring) throws(ControlProtocolError) -> SnoozeLength {
        guard let eq = field.firstIndex(of: "=") else { throw ControlProtocolError("bad snooze length") }
        let (key, value) = (field[..<eq], field[field.index(after: eq)...])
        func number() -> Int64? { Int64(value).flatMap { String($0) == value ? $0 : nil } }
        switch key {
        case "for" where value == "long":
            return .long
        case "for":
            guard let ms = number(), ms > 0, ms <= SnoozeLength.longest.milliseconds else { throw ControlProtocolError("bad snooze length") }
            return .span(.milliseconds(ms))
        case "until":
            guard let ns = number(), ns >= 0 else { throw ControlProtocolError("bad snooze time") }
            return .until(Instant(nanoseconds: ns))
        default:
            throw ControlProtocolError("bad snooze length")
        }
    }

    /// What an ID may hold: a PID's digits and a standing alarm's name (`a-z`, `0-9`, `-`, `_`).
    public static func isIDCharacter(_ s: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(s) || ("0"..."9").contains(s) || s == "-" || s == "_"
    }

    /// Whether `text` can name an alarm at all (checked by the client before it asks anyone).
    public static func isValidID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= ControlProtocol.maxID && text.unicodeScalars.allSatisfy(isIDCharacter)
    }
}

public struct ControlProtocolError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One line of a reply: `key=value` fields separated by spaces. Keys are fixed words; values are
/// percent-escaped (`%`, `=`, space, controls and DEL), so a name can hold anything and the
/// line still parses the same way.
public struct ControlRecord: Equatable, Sendable {
    public private(set) var fields: [String: String]

    public init(_ fields: [String: String] = [:]) { self.fields = fields }

    public subscript(_ key: String) -> String? {
        get { fields[key] }
        set { fields[key] = newValue }
    }

    /// An instant, carried as nanoseconds since the epoch (each end formats it in its own zone).
    public func instant(_ key: String) -> Instant? { fields[key].flatMap { Int64($0) }.map(Instant.init(nanoseconds:)) }

    public mutating func set(_ key: String, instant: Instant?) { fields[key] = instant.map { String($0.nanoseconds) } }

    /// An occurrence's snoozes, as `snoozes` and `snooze_limit` carry them; nil from a record
    /// without them (a wake too old to say).
    public var snoozes: SnoozeCount? {
        get {
            guard let used = fields["snoozes"].flatMap({ Int($0) }) else { return nil }
            return SnoozeCount(used: used, limit: fields["snooze_limit"].flatMap { Int($0) })
        }
        set {
            fields["snoozes"] = newValue.map { String($0.used) }
            fields["snooze_limit"] = newValue?.limit.map(String.init)
        }
    }

    /// The encoded line, newline included; keys sorted so equal records read the same.
    public var line: String {
        fields.keys.sorted().map { "\($0)=\(Self.escape(fields[$0] ?? ""))" }.joined(separator: " ") + "\n"
    }

    /// Decodes one line (without its newline).
    public init(decoding line: Substring) throws(ControlProtocolError) {
        var fields: [String: String] = [:]
        for token in line.split(separator: " ") {
            guard let eq = token.firstIndex(of: "=") else { throw ControlProtocolError("field without '='") }
            let key = String(token[..<eq])
            guard !key.isEmpty, key.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || $0 == "_" }) else {
                throw ControlProtocolError("bad field name")
            }
            guard let value = Self.unescape(token[token.index(after: eq)...]) else { throw ControlProtocolError("bad escape in '\(key)'") }
            fields[key] = value
        }
        self.fields = fields
    }

    static func escape(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "=") {
                bytes += [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0xF)]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "A") + v - 10 }

    static func unescape(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i < utf8.endIndex {
            let b = utf8[i]
            if b == UInt8(ascii: "%") {
                let h1 = utf8.index(after: i)
                guard h1 < utf8.endIndex else { return nil }
                let h2 = utf8.index(after: h1)
                guard h2 < utf8.endIndex, let hi = hexValue(utf8[h1]), let lo = hexValue(utf8[h2]) else { return nil }
                bytes.append(hi << 4 | lo)
                i = utf8.index(after: h2)
            } else {
                bytes.append(b)
                i = utf8.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
