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
