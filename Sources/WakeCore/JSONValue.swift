/// A JSON value, for every `--json` (`wake list`, `next`, `doctor`, `test`, the bar feed) and the
/// event log: built typed, written by `text` alone, the one place that escapes. What it writes
/// holds no character a terminal acts on (DEL, C1 controls and bidi marks come out as `\u007f`,
/// `\u009b`, `\u200f`), so its output goes to a terminal as it is (`Console.json`), never
/// through `TerminalText`. An object keeps its keys in the order given: the outputs' key order
/// is part of what scripts and tests read.
public indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    /// A number written with exactly `places` decimals: `units` / 10^`places`
    /// (`.fixed(-412, places: 3)` is `-0.412`), as seconds to the millisecond or dBFS to a tenth.
    case fixed(Int64, places: Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// `"..."`, or `null` for nil.
    public static func optional(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }

    /// A whole number, or `null` for nil.
    public static func optional<I: BinaryInteger>(_ i: I?) -> JSONValue { i.map { .int(Int64(clamping: $0)) } ?? .null }

    /// Milliseconds to the microsecond, rounded half away from zero: `0.412`, `-3.000`.
    public static func milliseconds(_ d: Duration) -> JSONValue {
        let n = d.nanoseconds
        return .fixed(n / 1000 + (n % 1000 >= 500 ? 1 : n % 1000 <= -500 ? -1 : 0), places: 3)
    }

    /// The compact text: no space, `{"a":1,"b":[true,null]}`.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .fixed(let units, let places):
            let scale = (0..<max(0, min(places, 18))).reduce(UInt64(1)) { p, _ in p * 10 }
            let a = units.magnitude
            out += (units < 0 ? "-" : "") + String(a / scale)
            if scale > 1 {
                let rest = String(a % scale)
                out += "." + String(repeating: "0", count: max(0, places - rest.count)) + rest
            }
        case .string(let s): out += JSONValue.quote(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += "," }
                out += JSONValue.quote(key) + ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// JSON's string syntax, with the escapes above.
    public static func quote(_ s: String) -> String { QuotedText.quote(s, QuotedText.json) }
}

extension JSONValue: Equatable {
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.fixed(let x, let p), .fixed(let y, let q)): return x == y && p == q
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}
