import Glibc
import Testing
@testable import WakeSystem

/// Which mappings the ring gives back (`ResidentCode`): only those whose pages are the file's.
@Suite("Resident code given back to the page cache")
struct ResidentCodeTests {
    static let smaps = """
        55d0a0000000-55d0a0400000 r-xp 00001000 fd:01 1234                       /usr/bin/wake
        Size:               4096 kB
        Rss:                2048 kB
        Anonymous:             0 kB
        VmFlags: rd ex mr mw me
        55d0a0400000-55d0a0500000 r--p 00401000 fd:01 1234                       /usr/bin/wake
        Rss:                 512 kB
        Anonymous:           128 kB
        55d0a0500000-55d0a0510000 rw-p 00501000 fd:01 1234                       /usr/bin/wake
        Rss:                  64 kB
        Anonymous:             0 kB
        7f0000000000-7f0000100000 r--p 00000000 00:00 0
        Rss:                1024 kB
        Anonymous:             0 kB
        7f0000200000-7f0000300000 r-xp 00000000 fd:01 99                         /opt/my libs/libx.so (deleted)
        Rss:                  40 kB
        Anonymous:             0 kB
        7f0000400000-7f0000500000 r-xp 00000000 fd:01 98                         /usr/lib/liby.so
        Rss:                   0 kB
        Anonymous:             0 kB
        7f0000600000-7f0000700000 r-xp 00000000 fd:01 97                         /usr/lib/libz.so
        Rss:                  12 kB
        7fff00000000-7fff00002000 r-xp 00000000 00:00 0                          [vdso]
        Rss:                   8 kB
        Anonymous:             0 kB
        7f0000800000-7f0000900000 r-xp 00000000 fd:01 96                         /usr/lib/libshared.so
        Rss:                  16 kB
        Anonymous:             0 kB
        7f0000a00000-7f0000b00000 r--s 00000000 00:01 95                         /memfd:pulseaudio (deleted)
        Rss:                  16 kB
        Anonymous:             0 kB
        7f0000c00000-7f00zz r-xp 00000000 fd:01 94                         /usr/lib/libbad.so
        Rss:                 999 kB
        Anonymous:             0 kB
        """

    @Test("released: read-only private file mappings with no private copy; kept: the rest")
    func releasable() {
        let mappings = ResidentCode.Mapping.parse(Array(Self.smaps.utf8))
        let released = mappings.filter(\.isReleasable).map(\.start)
        #expect(released == [0x55d0a0000000, 0x7f0000200000, 0x7f0000800000], "\(mappings)")
        // The code: its size and resident size as read.
        #expect(mappings.first == ResidentCode.Mapping(start: 0x55d0a0000000, end: 0x55d0a0400000, readOnlyFile: true,
                                                       residentKB: 2048, anonymousKB: 0))
        // Relocated data made read-only, writable data, an anonymous mapping, a page-less one, one
        // whose Anonymous line is missing, the vDSO, a shared memfd: kept.
        for start: UInt in [0x55d0a0400000, 0x55d0a0500000, 0x7f0000000000, 0x7f0000400000, 0x7f0000600000, 0x7fff00000000, 0x7f0000a00000] {
            #expect(mappings.first { $0.start == start }?.isReleasable == false, "\(String(start, radix: 16))")
        }
    }

    @Test("a header that does not parse ends the mapping before it: its fields go to none")
    func malformed() {
        let mappings = ResidentCode.Mapping.parse(Array(Self.smaps.utf8))
        let memfd = mappings.first { $0.start == 0x7f0000a00000 }
        #expect(memfd?.residentKB == 16, "\(String(describing: memfd))")
        #expect(!mappings.contains { $0.residentKB == 999 })
        #expect(ResidentCode.Mapping.parse(Array("\n\n12-\nRss: x kB\n".utf8)).isEmpty)
    }

    @Test("fields: the kB value, or nil for another field, no digits, or too many")
    func fields() {
        #expect(ResidentCode.Mapping.field("Rss:", Array("Rss:    1234 kB".utf8)[...]) == 1234)
        #expect(ResidentCode.Mapping.field("Rss:", Array("RssAnon: 12 kB".utf8)[...]) == nil)
        #expect(ResidentCode.Mapping.field("Rss:", Array("Rss:    kB".utf8)[...]) == nil)
        #expect(ResidentCode.Mapping.field("Rss:", Array("Rss: 9999999999999999999 kB".utf8)[...]) == nil)
        #expect(ResidentCode.Mapping.hex(Array("ffffffffffffffff".utf8)[...]) == UInt.max)
        #expect(ResidentCode.Mapping.hex(Array("1ffffffffffffffff".utf8)[...]) == nil)
    }

    @Test("in this process: code given back runs again, from the page cache")
    func releaseHere() {
        let released = ResidentCode.release()
        #expect(released > 0)
        // The code just unmapped (this test's, the runtime's, libc's) maps back as it runs.
        #expect(ResidentCode.Mapping.parse(Array(Self.smaps.utf8)).count == 10)
        #expect(strlen("mapped again") == 12 && String(42, radix: 16) == "2a")
    }

    @Test("mapped back before a deadline: what the release gives back, resident or not; of the code with the hot range, that range")
    func mapBackRanges() {
        let mappings = ResidentCode.Mapping.parse(Array(Self.smaps.utf8))
        let hot: (start: UInt, length: UInt) = (0x55d0a0100000, 0x400000)
        let ranges = ResidentCode.mapBackRanges(mappings, hot: hot)
        // The hot range cut at its mapping's end; the page-less library too; no private copy, no anonymous mapping.
        #expect(ranges.map(\.start) == [0x55d0a0100000, 0x7f0000200000, 0x7f0000400000, 0x7f0000800000], "\(ranges)")
        #expect(ranges.first?.length == 0x300000)
        #expect(ResidentCode.mapBackRanges(mappings, hot: nil).first?.length == 0x400000)
    }

    @Test("in this process: mapping back and trimming the heap leave the code running")
    func mapBackHere() {
        ResidentCode.release()
        ResidentCode.trimHeap()
        _ = HotText.mapBack()
        #expect(strlen("mapped again") == 12)
    }
}
