import Glibc
import Testing
@testable import WakeSystem

/// The pre-roll maps the code a ring runs (`HotText`). In a test build there is no order file,
/// so the two markers are neighbours: the range is small but real, and mapping it is harmless.
@Suite("The ring's code mapped before the deadline")
struct HotTextTests {
    @Test("maps the markers' range, again and again, without harm")
    func mapsTheRange() throws {
        let first = HotText.mapIn()
        #expect(first > 0 && first < 64 << 20, "\(first) bytes")
        #expect(HotText.mapIn() == first)
        // Every page of it is now in this process's page tables (mincore: resident).
        let (base, length) = try #require(HotText.range)
        #expect(length == first)
        let page = Int(HotText.pageSize)
        var resident = [UInt8](repeating: 0, count: (length + page - 1) / page)
        let rc = mincore(base, length, &resident)
        #expect(rc == 0 && resident.allSatisfy { $0 & 1 == 1 }, "mincore \(rc): \(resident)")
    }
}
