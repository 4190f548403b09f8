/// A value from a dconf database (`~/.config/dconf/user`, GVDB's format: a GVariant header, one
/// hash table of items, each key the tail of its parent's), read for the desktop's settings wake
/// follows (GNOME's `clock-format`). Read here rather than through the dconf library or the
/// settings portal: a command reads one key in microseconds, without a library or a bus. Only
/// string values are read; a file that is not such a database, or is cut short, gives nil.
public enum DconfDatabase {
    /// The string stored at `key` (`/org/gnome/desktop/interface/clock-format`), nil when there is none.
    public static func string(at key: String, in bytes: [UInt8]) -> String? {
        guard bytes.count >= 24, Array(bytes[0..<8]) == Array("GVariant".utf8) else { return nil }
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        guard let rootStart = u32(16), let rootEnd = u32(20), rootStart < rootEnd, rootEnd <= bytes.count,
              let bloom = u32(rootStart), let buckets = u32(rootStart + 4) else { return nil }
        let itemsStart = rootStart + 8 + 4 * (bloom & ((1 << 27) - 1)) + 4 * buckets
        guard itemsStart <= rootEnd else { return nil }
        let count = (rootEnd - itemsStart) / 24
        struct Item { var parent: Int; var keyStart: Int; var keySize: Int; var type: UInt8; var start: Int; var end: Int }
        var items: [Item] = []
        items.reserveCapacity(count)
        for i in 0..<count {
            let at = itemsStart + 24 * i
            guard let parent = u32(at + 4), let keyStart = u32(at + 8), let start = u32(at + 16), let end = u32(at + 20) else { return nil }
            let keySize = Int(bytes[at + 12]) | Int(bytes[at + 13]) << 8
            items.append(Item(parent: parent, keyStart: keyStart, keySize: keySize, type: bytes[at + 14], start: start, end: end))
        }
        func segment(_ item: Item) -> ArraySlice<UInt8>? {
            guard item.keyStart + item.keySize <= bytes.count else { return nil }
            return bytes[item.keyStart..<(item.keyStart + item.keySize)]
        }
        let wanted = Array(key.utf8)
        for item in items where item.type == UInt8(ascii: "v") {
            // The key read back to front through its parents (at most as many as there are items: no loop).
            var parts: [ArraySlice<UInt8>] = []
            var length = 0
            var c = item
            while true {
                guard let s = segment(c) else { return nil }
                parts.append(s)
                length += s.count
                if length > wanted.count { break }  // longer than the key: not it (and no chain grows without bound)
                if c.parent == 0xFFFF_FFFF { break }
                guard c.parent < count, parts.count <= count else { return nil }
                c = items[c.parent]
            }
            guard Array(parts.reversed().joined()) == wanted else { continue }
            return variantString(bytes, item.start, item.end)
        }
        return nil
    }

    /// A serialised `v` holding an `s`: the string's bytes and its NUL, a NUL, then the type `s`.
    static func variantString(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String? {
        guard start >= 0, start < end, end <= bytes.count else { return nil }
        let value = bytes[start..<end]
        guard let separator = value.lastIndex(of: 0), Array(value[(separator + 1)...]) == [UInt8(ascii: "s")],
              let nul = value[..<separator].firstIndex(of: 0) else { return nil }
        return String(decoding: value[start..<nul], as: UTF8.self)
    }
}
