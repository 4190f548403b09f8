import Glibc

// The two ends of the code the release link lays out together: `scripts/make-symbol-order` lists
// `wake_hot_text_begin` first and `wake_hot_text_end` last in packaging/link/symbol-order.txt,
// so every function a ring was seen to run lies between them. (In a build without the order file
// they are neighbours, and the range is the page or two they are on.)
@_cdecl("wake_hot_text_begin") public func wakeHotTextBegin() {}
@_cdecl("wake_hot_text_end") public func wakeHotTextEnd() {}

/// The code a ring runs, read into the page cache before the deadline.
///
/// Laid out together, the ring's functions share few 64 KB windows with what ran earlier, so the
/// first ring is the first to touch some of them; and when the page cache was dropped during the
/// wait (memory pressure overnight), those pages came from the disk at the deadline: the first
/// frame 2–10 ms late (BENCHMARKS.md, figure 1, cold). The pre-roll reads them a second early
/// instead (`MADV_WILLNEED`: the kernel reads the whole range ahead, measured with fincore), so
/// the deadline takes only minor faults. It used to map them (`MADV_POPULATE_READ`), which kept
/// all 4.4 MB of the range resident for the whole ring, a megabyte more than a ring touches
/// (issue 28's memory target).
public enum HotText {
    /// Asks the kernel to read the hot range's pages into the page cache, without mapping them
    /// into this process. Returns the bytes covered, 0 when the build has no hot range or the
    /// kernel refused (then the deadline reads what it runs, as a build without the order does).
    @discardableResult
    public static func prefetch() -> Int {
        guard let (base, length) = range else { return 0 }
        return madvise(base, length, MADV_WILLNEED) == 0 ? length : 0
    }

    /// Maps back, a second before a deadline, the code a waiting process gave back
    /// (`ResidentCode.mapBack`): the hot range and the libraries' code, so the first frame takes
    /// no fault that reads the disk even when the page cache was dropped in that second. Where
    /// the kernel cannot populate, it reads the hot range ahead as `prefetch` does.
    @discardableResult
    public static func mapBack() -> Int {
        let mapped = ResidentCode.mapBack(hot: range)
        return mapped > 0 ? mapped : prefetch()
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
}
