import Glibc
import Testing
@testable import WakeSystem

/// The pre-roll reads the code a ring runs into the page cache (`HotText`). In a test build there
/// is no order file, so the two markers are neighbours: the range is small but real, and reading
/// it ahead is harmless.
@Suite("The ring's code read ahead before the deadline")
struct HotTextTests {
    @Test("reads the markers' range ahead, again and again, without harm")
    func readsTheRangeAhead() async throws {
        let first = HotText.prefetch()
        #expect(first > 0 && first < 64 << 20, "\(first) bytes")
        #expect(HotText.prefetch() == first)
        let (base, length) = try #require(HotText.range)
        #expect(length == first)
        // Every page of it is in the page cache (mincore), read ahead if it was not already.
        let page = Int(HotText.pageSize)
        var resident = [UInt8](repeating: 0, count: (length + page - 1) / page)
        var rc: Int32 = 0
        for _ in 0..<40 {
            rc = mincore(base, length, &resident)
            if rc == 0 && resident.allSatisfy({ $0 & 1 == 1 }) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(rc == 0 && resident.allSatisfy { $0 & 1 == 1 }, "mincore \(rc): \(resident)")
    }
}
