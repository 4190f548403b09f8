import Glibc

// The two ends of the code the release link lays out together: `scripts/make-symbol-order` lists
// `wake_hot_text_begin` first and `wake_hot_text_end` last in packaging/link/symbol-order.txt,
// so every function a ring was seen to run lies between them. (In a build without the order file
// they are neighbours, and the range is the page or two they are on.)
@_cdecl("wake_hot_text_begin") public func wakeHotTextBegin() {}
@_cdecl("wake_hot_text_end") public func wakeHotTextEnd() {}

/// The code a ring runs, mapped into this process before the deadline.
///
/// Laid out together, the ring's functions share few 64 KB windows with what ran earlier, so the
/// first ring is the first to touch some of them; and when the page cache was dropped during the
/// wait (memory pressure overnight), those pages came from the disk at the deadline: the first
/// frame 2–10 ms late (BENCHMARKS.md, figure 1, cold). The pre-roll maps them a second early
/// instead; a page mapped into a process is not dropped from the cache.
public enum HotText {
    /// Maps the hot range's pages (`MADV_POPULATE_READ`, Linux 5.14; before that, a read of a
    /// byte in each page). Returns the bytes covered, 0 when the build has no hot range.
    @discardableResult
    public static func mapIn() -> Int {
        guard let (base, length) = range else { return 0 }
        let page = Int(pageSize)
        if madvise(base, length, MADV_POPULATE_READ) != 0 {
            var sum: UInt8 = 0
            for offset in stride(from: 0, to: length, by: page) {
                sum &+= UnsafeRawPointer(base).load(fromByteOffset: offset, as: UInt8.self)
            }
            touched = sum
        }
        return length
    }

    /// From the page the first marker is on to the second marker; nil when the markers are not
    /// where the order file puts them (beyond 64 MB apart, or the wrong way round).
    static var range: (base: UnsafeMutableRawPointer, length: Int)? {
        let begin = unsafeBitCast(wakeHotTextBegin as @convention(c) () -> Void, to: UInt.self)
        let end = unsafeBitCast(wakeHotTextEnd as @convention(c) () -> Void, to: UInt.self)
        guard end > begin, end - begin < 64 << 20 else { return nil }
        let start = begin & ~(pageSize - 1)
        guard let base = UnsafeMutableRawPointer(bitPattern: start) else { return nil }
        return (base, Int(end - start))
    }

    static var pageSize: UInt { UInt(max(sysconf(Int32(_SC_PAGESIZE)), 4096)) }

    /// Keeps the fallback's reads from being optimised away.
    nonisolated(unsafe) private static var touched: UInt8 = 0
}
