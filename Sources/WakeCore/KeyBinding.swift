/// What a key on the terminal asks for: `s`, `z` and space snooze, `q` cancels (before the
/// alarm rings; after, any key ends it), `u` is "up already" (during a pre-alarm it skips the
/// alarm), any other key stops (during a pre-alarm: stops the quiet ring, the alarm stays set).
public enum KeyBinding {
    public static func command(for byte: UInt8) -> (AlarmCommand, Requester) {
        let who = Requester.key(name(of: byte))
        switch byte {
        case UInt8(ascii: "s"), UInt8(ascii: "S"), UInt8(ascii: "z"), UInt8(ascii: "Z"), UInt8(ascii: " "):
            return (.snooze, who)
        case UInt8(ascii: "q"), UInt8(ascii: "Q"):
            return (.cancel, who)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            // Up already: skips the alarm during or after its pre-alarm; while ringing it stops.
            return (.upAlready, who)
        default:
            return (.stop, who)
        }
    }

    /// What a whole key asks for: an escape sequence (Delete, an F-key, an arrow, a mouse
    /// report) is "any other key", a stop, named by its key.
    public static func command(for key: TerminalKey) -> (AlarmCommand, Requester) {
        guard let byte = key.byte else { return (.stop, .key(key.name)) }
        return command(for: byte)
    }

    /// A key's printable name: never a raw control character.
    public static func name(of byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: " "): return "space"
        case 0x0A, 0x0D: return "enter"
        case 0x1B: return "escape"
        case 0x7F: return "ctrl-?"
        case 0..<0x20: return "ctrl-\(Character(UnicodeScalar(byte ^ 0x40)))"
        case 0x21..<0x7F: return String(Character(UnicodeScalar(byte)))
        default: return "0x" + String(byte, radix: 16)
        }
    }
}

/// One key as the terminal sent it: a single byte, or a whole escape sequence (Delete is
/// `ESC [ 3 ~`, F1 `ESC O P`, F5 `ESC [ 1 5 ~`, a mouse report `ESC [ M b x y` or `ESC [ < 0;9;5 M`).
/// A sequence is one key: its digits never type into a `--challenge` answer.
public enum TerminalKey: Hashable, Sendable {
    case byte(UInt8)
    /// A whole escape sequence, by its printable name (`delete`, `f5`, `up`, `mouse`).
    case sequence(String)

    /// The byte the entry and the key table see: a sequence is none of the entry's keys.
    public var byte: UInt8? {
        if case .byte(let b) = self { return b }
        return nil
    }

    /// The key's printable name, as the event log and the console say it.
    public var name: String {
        switch self {
        case .byte(let b): return KeyBinding.name(of: b)
        case .sequence(let name): return name
        }
    }
}

/// Cuts the bytes read from the terminal into keys, escape sequences whole. It keeps its state
/// from one read to the next, so a sequence split across two reads is still one key. A lone
/// Escape (an escape at the end of a read, nothing after it) is a key at once, not held back for
/// the next read; if the rest of a sequence follows in the next read, it is swallowed, so no
/// digit of it types into an answer.
public struct TerminalKeyReader: Hashable, Sendable {
    /// The most parameter bytes of a sequence kept for its name; a longer one is still one key.
    public static let longest = 32

    private enum State: Hashable, Sendable {
        case ground
        /// After ESC.
        case escape
        /// After `ESC [`, with the parameter and intermediate bytes so far.
        case csi(String)
        /// After `ESC O`: one more byte names the key.
        case ss3
        /// After `ESC [ M`: three raw bytes of an X10 mouse report still to come.
        case mouse(Int)
    }

    private var state = State.ground
    /// Whether the sequence in progress was already given as a key (its escape ended a read).
    private var announced = false

    public init() {}

    /// The keys in one read's bytes, in order.
    public mutating func keys(in bytes: [UInt8]) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        for byte in bytes { feed(byte, into: &keys) }
        if state == .escape && !announced {
            // Escape pressed on its own: a key now. What follows in the next read, if it is a
            // sequence's rest after all, ends as part of this key.
            keys.append(.sequence("escape"))
            announced = true
        }
        return keys
    }

    private mutating func feed(_ byte: UInt8, into keys: inout [TerminalKey]) {
        switch state {
        case .ground:
            if byte == 0x1B {
                state = .escape
                announced = false
            } else {
                keys.append(.byte(byte))
            }
        case .escape:
            switch byte {
            case UInt8(ascii: "["): state = .csi("")
            case UInt8(ascii: "O"): state = .ss3
            default:
                // Escape then another key (Alt-x, or two presses): the escape is a key of its
                // own, and this byte is read afresh.
                finish("escape", into: &keys)
                feed(byte, into: &keys)
            }
        case .ss3:
            if (0x40...0x7E).contains(byte) {
                finish(Self.ss3Name(byte), into: &keys)
            } else {
                finish("escape", into: &keys)
                feed(byte, into: &keys)
            }
        case .mouse(let left):
            if left > 1 { state = .mouse(left - 1) } else { finish("mouse", into: &keys) }
        case .csi(let body):
            switch byte {
            case 0x20...0x3F:
                // Parameter and intermediate bytes; past the longest, a runaway sequence's are
                // no longer kept (it is still one key, ended by its final byte).
                if body.utf8.count < Self.longest { state = .csi(body + String(UnicodeScalar(byte))) }
            case UInt8(ascii: "M") where body.isEmpty:
                state = .mouse(3)  // X10 mouse report: button, column, row as raw bytes
            case 0x40...0x7E:
                finish(Self.csiName(body, final: byte), into: &keys)
            default:
                // Not part of a sequence (a control character, a byte past ASCII): the sequence
                // so far is one key, and this byte is read afresh.
                finish("escape", into: &keys)
                feed(byte, into: &keys)
            }
        }
    }

    private mutating func finish(_ name: String, into keys: inout [TerminalKey]) {
        if !announced { keys.append(.sequence(name)) }
        state = .ground
        announced = false
    }

    static func ss3Name(_ final: UInt8) -> String {
        switch final {
        case UInt8(ascii: "P"): return "f1"
        case UInt8(ascii: "Q"): return "f2"
        case UInt8(ascii: "R"): return "f3"
        case UInt8(ascii: "S"): return "f4"
        default: return arrowName(final) ?? "escape"
        }
    }

    static func csiName(_ body: String, final: UInt8) -> String {
        if body.hasPrefix("<") && (final == UInt8(ascii: "M") || final == UInt8(ascii: "m")) { return "mouse" }
        if final == UInt8(ascii: "~") {
            let number = body.split(separator: ";").first.map(String.init) ?? ""
            let names = ["1": "home", "2": "insert", "3": "delete", "4": "end", "5": "page-up", "6": "page-down", "7": "home", "8": "end",
                         "11": "f1", "12": "f2", "13": "f3", "14": "f4", "15": "f5", "17": "f6", "18": "f7", "19": "f8",
                         "20": "f9", "21": "f10", "23": "f11", "24": "f12"]
            return names[number] ?? "escape"
        }
        return arrowName(final) ?? "escape"
    }

    static func arrowName(_ final: UInt8) -> String? {
        switch final {
        case UInt8(ascii: "A"): return "up"
        case UInt8(ascii: "B"): return "down"
        case UInt8(ascii: "C"): return "right"
        case UInt8(ascii: "D"): return "left"
        case UInt8(ascii: "H"): return "home"
        case UInt8(ascii: "F"): return "end"
        default: return nil
        }
    }
}
