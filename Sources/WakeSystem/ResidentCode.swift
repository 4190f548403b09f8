import CLinux
import Glibc

/// Gives back the code pages a finished phase of the run mapped, so they stop counting in this
/// process's resident memory.
///
/// A process maps its code page by page as it first runs it (the kernel maps 64 KB around each
/// such page) and keeps it mapped to the end: the argument parser's code and the arm-time
/// checks' (decoding, the device check, the inhibitor, the notification server) stayed resident
/// through the night's wait and counted in the ring's peak. Unmapped, a page stays in the page
/// cache, and the next run of that code maps it again with a minor fault; the pre-roll (a second
/// before the deadline) runs and reads ahead what the ring needs, so none of it waits for the
/// deadline (`HotText`).
public enum ResidentCode {
    /// Unmaps (`MADV_DONTNEED`) every mapping that is private, file-backed and not writable, and
    /// none of whose pages is a private copy (`Anonymous: 0 kB` in /proc/self/smaps): its pages
    /// are the file's, so nothing is lost. Mappings that are writable, or that hold a private
    /// copy (data relocated and then made read-only, a debugger's breakpoint), are left as they
    /// are. Returns the bytes that were resident in the mappings released (0 when /proc cannot be
    /// read).
    @discardableResult
    public static func release() -> Int {
        guard let smaps = ZoneLoader.readProcFile("/proc/self/smaps") else { return 0 }
        var released = 0
        for mapping in Mapping.parse(smaps) where mapping.isReleasable {
            guard let base = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            if madvise(base, Int(clamping: mapping.end - mapping.start), MADV_DONTNEED) == 0 { released &+= mapping.residentKB &* 1024 }
        }
        return released
    }

    /// Gives the heap's free pages back to the kernel (`malloc_trim(0)`): a reload of thousands
    /// of alarms frees as much as it keeps, in the middle of the heap where glibc never trims by
    /// itself, and a waiting daemon kept it resident (a megabyte and more a few reloads).
    public static func trimHeap() {
        _ = malloc_trim(0)
    }

    /// Maps back (`MADV_POPULATE_READ`) what `release` gives back, a second before a deadline:
    /// every mapping it would release, whole, except the one holding `hot`, of which only `hot`
    /// (the ring's code, which the release link lays out together: `HotText`). Mapped pages stay
    /// in the page cache whatever happens to it (memory pressure, `drop_caches`) until the ring
    /// starts and gives them back again. Returns the bytes mapped back; 0 when /proc cannot be read
    /// or the kernel has no `MADV_POPULATE_READ` (before 5.14).
    @discardableResult
    public static func mapBack(hot: (base: UnsafeMutableRawPointer, length: Int)?) -> Int {
        guard let smaps = ZoneLoader.readProcFile("/proc/self/smaps") else { return 0 }
        var mapped = 0
        for range in mapBackRanges(Mapping.parse(smaps), hot: hot.map { (UInt(bitPattern: $0.base), UInt($0.length)) }) {
            guard let base = UnsafeMutableRawPointer(bitPattern: range.start) else { continue }
            if madvise(base, Int(clamping: range.length), populateRead) == 0 { mapped &+= Int(clamping: range.length) }
        }
        return mapped
    }

    /// Not in every Glibc module's headers yet.
    static let populateRead: Int32 = 22

    /// The ranges `mapBack` populates: each mapping whose pages are all the file's, resident or
    /// not; in the one that holds the hot range, the hot range alone.
    static func mapBackRanges(_ mappings: [Mapping], hot: (start: UInt, length: UInt)?) -> [(start: UInt, length: UInt)] {
        mappings.compactMap { m in
            guard m.readOnlyFile, m.anonymousKB == 0, m.end > m.start else { return nil }
            guard let hot, hot.start >= m.start, hot.start < m.end else { return (m.start, m.end - m.start) }
            return (hot.start, min(hot.length, m.end - hot.start))
        }
    }

    /// One mapping of /proc/PID/smaps: its header line and the two fields asked for.
    struct Mapping: Equatable {
        var start: UInt
        var end: UInt
        /// `r-xp` or `r--p`, backed by a file (an inode, a path not in brackets).
        var readOnlyFile: Bool
        var residentKB = 0
        /// nil when the smaps text had no `Anonymous:` line for it: then it is left alone.
        var anonymousKB: Int?

        var isReleasable: Bool { readOnlyFile && anonymousKB == 0 && residentKB > 0 && end > start }

        /// The mappings in smaps text; a line that does not parse is skipped, and a header that
        /// does not parse ends the mapping before it (its fields are not given to another).
        static func parse(_ text: [UInt8]) -> [Mapping] {
            var mappings: [Mapping] = []
            var current: Mapping?
            for line in text.split(separator: UInt8(ascii: "\n")) {
                guard let first = line.first else { continue }
                if isHex(first) {
                    if let c = current { mappings.append(c) }
                    current = header(line)
                } else if current != nil {
                    if let kb = field("Anonymous:", line) { current?.anonymousKB = kb }
                    if let kb = field("Rss:", line) { current?.residentKB = kb }
                }
            }
            if let c = current { mappings.append(c) }
            return mappings
        }

        /// `start-end perms offset dev inode [path]`.
        static func header(_ line: ArraySlice<UInt8>) -> Mapping? {
            let words = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard words.count >= 5 else { return nil }
            let range = words[0].split(separator: UInt8(ascii: "-"))
            guard range.count == 2, let start = hex(range[0]), let end = hex(range[1]) else { return nil }
            let perms = Array(words[1])
            guard perms.count == 4 else { return nil }
            let inode = words[4]
            let path = words.count == 6 ? words[5].drop(while: { $0 == UInt8(ascii: " ") }) : []
            // An anonymous mapping has inode 0; a pseudo-file ([vdso], [heap]) a name in brackets.
            let file = !inode.elementsEqual("0".utf8) && !path.isEmpty && path.first != UInt8(ascii: "[")
            let readOnly = perms[0] == UInt8(ascii: "r") && perms[1] == UInt8(ascii: "-") && perms[3] == UInt8(ascii: "p")
            return Mapping(start: start, end: end, readOnlyFile: file && readOnly)
        }

        /// The kB value of `name` when the line is that field (`Rss:   1234 kB`).
        static func field(_ name: StaticString, _ line: ArraySlice<UInt8>) -> Int? {
            let key = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            guard line.count > key.count, line.prefix(key.count).elementsEqual(key) else { return nil }
            var value = 0
            var digits = 0
            for byte in line.dropFirst(key.count) {
                if byte == UInt8(ascii: " ") { if digits == 0 { continue } else { break } }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 15 else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            }
            return digits > 0 ? value : nil
        }

        static func isHex(_ b: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b)
        }

        static func hex(_ digits: ArraySlice<UInt8>) -> UInt? {
            guard !digits.isEmpty, digits.count <= 16 else { return nil }
            var value: UInt = 0
            for d in digits {
                guard isHex(d) else { return nil }
                value = value << 4 | UInt(d <= UInt8(ascii: "9") ? d - UInt8(ascii: "0") : d - UInt8(ascii: "a") + 10)
            }
            return value
        }
    }
}
