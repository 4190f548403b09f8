import CSystemd
import Glibc

/// A D-Bus value of any type, as wake's services send and receive them: what a method call
/// brings and what a reply, a property or a signal carries. sd-bus's own appenders are
/// variadic C, which Swift cannot call; one tree walked by `append` and `read` stands in for them.
public indirect enum BusValue: Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `a` + the element's signature; the signature is given so an empty array has a type.
    case array(element: String, [BusValue])
    /// `a{KV}` with the key's and the value's signatures, entries in the order given.
    case dictionary(key: String, value: String, [(BusValue, BusValue)])
    case variant(BusValue)
    case structure([BusValue])

    /// The value's D-Bus signature (`s`, `a{sv}`, `(ss)`).
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .boolean: return "b"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .array(let element, _): return "a" + element
        case .dictionary(let k, let v, _): return "a{\(k)\(v)}"
        case .variant: return "v"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        }
    }

    // MARK: building

    /// `a{sv}`: property maps, option dictionaries, MPRIS metadata.
    public static func properties(_ pairs: [(String, BusValue)]) -> BusValue {
        .dictionary(key: "s", value: "v", pairs.map { (.string($0.0), .variant($0.1)) })
    }

    /// `as`.
    public static func strings(_ list: [String]) -> BusValue { .array(element: "s", list.map { .string($0) }) }

    // MARK: reading

    public var string: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        case .variant(let v): return v.string
        default: return nil
        }
    }

    public var bool: Bool? {
        switch self {
        case .boolean(let b): return b
        case .variant(let v): return v.bool
        default: return nil
        }
    }

    /// Any integer type as an Int64 (a uint64 beyond its range is nil).
    public var integer: Int64? {
        switch self {
        case .byte(let v): return Int64(v)
        case .int32(let v): return Int64(v)
        case .uint32(let v): return Int64(v)
        case .int64(let v): return v
        case .uint64(let v): return Int64(exactly: v)
        case .variant(let v): return v.integer
        default: return nil
        }
    }

    /// The elements of an array (of any element type); nil for anything else.
    public var elements: [BusValue]? {
        switch self {
        case .array(_, let list): return list
        case .variant(let v): return v.elements
        default: return nil
        }
    }

    /// An `a{s…}` dictionary by its string keys (variants unwrapped); nil for anything else.
    public var stringKeyed: [String: BusValue]? {
        switch self {
        case .dictionary(_, _, let entries):
            var out: [String: BusValue] = [:]
            for (k, v) in entries {
                guard let key = k.string else { return nil }
                if case .variant(let inner) = v { out[key] = inner } else { out[key] = v }
            }
            return out
        case .variant(let v): return v.stringKeyed
        default: return nil
        }
    }
}

/// Appending to and reading from sd-bus messages; each failure a BusError naming the call.
enum BusMessageCoding {
    private static func check(_ call: String, _ r: Int32) throws(BusError) {
        if r < 0 { throw BusError(call: call, name: nil, message: String(cString: strerror(-r))) }
    }

    private static func code(_ c: Character) -> CChar { CChar(bitPattern: c.asciiValue ?? 0) }

    static func append(_ value: BusValue, to m: OpaquePointer) throws(BusError) {
        func basic<T: BitwiseCopyable>(_ type: Character, _ v: T) throws(BusError) {
            var v = v
            try check("sd_bus_message_append_basic(\(type))", wake_sd_bus_message_append_basic(m, code(type), &v))
        }
        switch value {
        case .byte(let v): try basic("y", v)
        case .boolean(let v): try basic("b", Int32(v ? 1 : 0))
        case .int32(let v): try basic("i", v)
        case .uint32(let v): try basic("u", v)
        case .int64(let v): try basic("x", v)
        case .uint64(let v): try basic("t", v)
        case .double(let v): try basic("d", v)
        case .string(let s), .objectPath(let s), .signature(let s):
            let type: Character = value.signature == "s" ? "s" : value.signature == "o" ? "o" : "g"
            // A NUL inside a Swift string would end the C string early: sd-bus would send a
            // shorter text than asked. Such a name never comes from wake's own files.
            try check("sd_bus_message_append_basic(\(type))", s.withCString { wake_sd_bus_message_append_basic(m, code(type), $0) })
        case .array(let element, let list):
            try check("sd_bus_message_open_container(a\(element))", wake_sd_bus_message_open_container(m, code("a"), element))
            for v in list { try append(v, to: m) }
            try check("sd_bus_message_close_container(a\(element))", wake_sd_bus_message_close_container(m))
        case .dictionary(let k, let v, let entries):
            try check("sd_bus_message_open_container(a{\(k)\(v)})", wake_sd_bus_message_open_container(m, code("a"), "{\(k)\(v)}"))
            for (key, item) in entries {
                try check("sd_bus_message_open_container({\(k)\(v)})", wake_sd_bus_message_open_container(m, code("e"), k + v))
                try append(key, to: m)
                try append(item, to: m)
                try check("sd_bus_message_close_container({\(k)\(v)})", wake_sd_bus_message_close_container(m))
            }
            try check("sd_bus_message_close_container(a{\(k)\(v)})", wake_sd_bus_message_close_container(m))
        case .variant(let inner):
            try check("sd_bus_message_open_container(v)", wake_sd_bus_message_open_container(m, code("v"), inner.signature))
            try append(inner, to: m)
            try check("sd_bus_message_close_container(v)", wake_sd_bus_message_close_container(m))
        case .structure(let fields):
            let contents = fields.map(\.signature).joined()
            try check("sd_bus_message_open_container(r)", wake_sd_bus_message_open_container(m, code("r"), contents))
            for f in fields { try append(f, to: m) }
            try check("sd_bus_message_close_container(r)", wake_sd_bus_message_close_container(m))
        }
    }

    /// Every value left at the message's current level, in order.
    static func readAll(_ m: OpaquePointer) throws(BusError) -> [BusValue] {
        var out: [BusValue] = []
        // A caller controls the message: bound the nesting it can make wake walk (D-Bus allows 64).
        while let v = try readNext(m, depth: 0) { out.append(v) }
        return out
    }

    private static func readNext(_ m: OpaquePointer, depth: Int) throws(BusError) -> BusValue? {
        guard depth < 64 else { throw BusError(call: "sd_bus_message_peek_type", name: nil, message: "nested too deep") }
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let r = wake_sd_bus_message_peek_type(m, &type, &contents)
        try check("sd_bus_message_peek_type", r)
        if r == 0 { return nil }
        let inner = contents.map { String(cString: $0) } ?? ""
        func basic<T: BitwiseCopyable>(_ initial: T) throws(BusError) -> T {
            var v = initial
            try check("sd_bus_message_read_basic", wake_sd_bus_message_read_basic(m, type, &v))
            return v
        }
        func text() throws(BusError) -> String {
            var p: UnsafePointer<CChar>?
            try check("sd_bus_message_read_basic", wake_sd_bus_message_read_basic(m, type, &p))
            return p.map { String(cString: $0) } ?? ""
        }
        func container(_ kind: CChar, _ body: () throws(BusError) -> BusValue) throws(BusError) -> BusValue {
            try check("sd_bus_message_enter_container", wake_sd_bus_message_enter_container(m, kind, inner))
            let v = try body()
            try check("sd_bus_message_exit_container", wake_sd_bus_message_exit_container(m))
            return v
        }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "y"): return .byte(try basic(UInt8(0)))
        case UInt8(ascii: "b"): return .boolean(try basic(Int32(0)) != 0)
        case UInt8(ascii: "n"): return .int32(Int32(try basic(Int16(0))))
        case UInt8(ascii: "q"): return .uint32(UInt32(try basic(UInt16(0))))
        case UInt8(ascii: "i"): return .int32(try basic(Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try basic(UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try basic(Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try basic(UInt64(0)))
        case UInt8(ascii: "d"): return .double(try basic(Double(0)))
        case UInt8(ascii: "h"): _ = try basic(Int32(0)); return .int32(-1)  // a descriptor means nothing to wake
        case UInt8(ascii: "s"): return .string(try text())
        case UInt8(ascii: "o"): return .objectPath(try text())
        case UInt8(ascii: "g"): return .signature(try text())
        case UInt8(ascii: "v"):
            return try container(type) { () throws(BusError) -> BusValue in
                guard let v = try readNext(m, depth: depth + 1) else { throw BusError(call: "sd_bus_message_read", name: nil, message: "an empty variant") }
                return .variant(v)
            }
        case UInt8(ascii: "r"):
            return try container(type) { () throws(BusError) -> BusValue in
                var fields: [BusValue] = []
                while let v = try readNext(m, depth: depth + 1) { fields.append(v) }
                return .structure(fields)
            }
        case UInt8(ascii: "a"):
            if inner.hasPrefix("{") {
                let pair = inner.dropFirst().dropLast()
                let key = String(pair.prefix(1))
                let value = String(pair.dropFirst())
                return try container(type) { () throws(BusError) -> BusValue in
                    var entries: [(BusValue, BusValue)] = []
                    while true {
                        var t: CChar = 0
                        var c: UnsafePointer<CChar>?
                        let more = wake_sd_bus_message_peek_type(m, &t, &c)
                        try check("sd_bus_message_peek_type", more)
                        if more == 0 { break }
                        try check("sd_bus_message_enter_container", wake_sd_bus_message_enter_container(m, t, c))
                        guard let k = try readNext(m, depth: depth + 1), let v = try readNext(m, depth: depth + 1) else {
                            throw BusError(call: "sd_bus_message_read", name: nil, message: "a dictionary entry without a key or a value")
                        }
                        try check("sd_bus_message_exit_container", wake_sd_bus_message_exit_container(m))
                        entries.append((k, v))
                    }
                    return .dictionary(key: key, value: value, entries)
                }
            }
            return try container(type) { () throws(BusError) -> BusValue in
                var list: [BusValue] = []
                while let v = try readNext(m, depth: depth + 1) { list.append(v) }
                return .array(element: inner, list)
            }
        default:
            throw BusError(call: "sd_bus_message_peek_type", name: nil, message: "a value of type '\(Character(UnicodeScalar(UInt8(bitPattern: type))))' wake does not read")
        }
    }
}
