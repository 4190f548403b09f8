import Testing
import WakeCore

/// A folder or list as the sound: the M3U rules, the folder's names, and the shuffle.
@Suite("SoundList")
struct SoundListTests {
    func parse(_ text: String, dir: String = "/music") -> SoundList.Parsed {
        SoundList.parseM3U(bytes: Array(text.utf8), listDirectory: dir)
    }

    @Test("a list's missing files: one line each when few; many are one line with the count and the first three names")
    func missingFilesSaidOnce() {
        #expect(SoundList.missingLines([]) == [])
        #expect(SoundList.missingLines(["/a.wav", "/b\u{1B}.wav"])
                == ["'/a.wav': no such file; it is left out", "'\(TerminalText.printable("/b\u{1B}.wav"))': no such file; it is left out"])
        let many = (1...4998).map { "/m/\($0).wav" }
        #expect(SoundList.missingLines(many)
                == ["4,998 of its files are missing, e.g. '/m/1.wav'; '/m/2.wav'; '/m/3.wav'; they are left out"])
        #expect(SoundList.missingLines(Array(many.prefix(4))).first?.hasPrefix("4 of its files are missing") == true)
        #expect(SoundList.missingLines(Array(repeating: "/x.wav", count: 1_234_567)).first?.hasPrefix("1,234,567 of") == true)
    }

    @Test func takesRelativeAndAbsolutePathsAndSkipsComments() {
        let list = parse("#EXTM3U\n#EXTINF:12,Birds - Dawn\nbirds.ogg\n\n  /abs/bell.wav  \n#EXTGRP:x\nsub/../rain.flac\n./a b.mp3\n")
        #expect(list.entries == ["/music/birds.ogg", "/abs/bell.wav", "/music/rain.flac", "/music/a b.mp3"])
        #expect(list.problems.isEmpty)
    }

    @Test func acceptsBOMAndCRLF() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("#EXTM3U\r\na.wav\r\nb.wav\r\n".utf8)
        let list = SoundList.parseM3U(bytes: bytes, listDirectory: "/d")
        #expect(list.entries == ["/d/a.wav", "/d/b.wav"])
    }

    @Test func fileURLsAreTakenOtherURLsRefused() {
        let list = parse("file:///home/me/My%20Song.ogg\nfile://localhost/x.wav\nhttp://radio/stream.mp3\nfile://other/y.wav\n")
        #expect(list.entries == ["/home/me/My Song.ogg", "/x.wav"])
        #expect(list.problems.count == 2)
        #expect(list.problems[0].hasPrefix("line 3: 'http://radio/stream.mp3' is a URL"), "\(list.problems)")
        #expect(list.problems[1].hasPrefix("line 4:"), "\(list.problems)")
    }

    @Test func refusesNestedListsAndBadTextDropsDuplicates() {
        var bytes = Array("a.wav\nother.m3u8\n".utf8)
        bytes += [0xFF, 0xFE, 0x0A]
        bytes += Array("a.wav\n/music/a.wav\n".utf8)
        let list = SoundList.parseM3U(bytes: bytes, listDirectory: "/music")
        #expect(list.entries == ["/music/a.wav"])
        #expect(list.problems.count == 2, "\(list.problems)")
        #expect(list.problems[0].contains("lists within lists"))
        #expect(list.problems[1].hasPrefix("line 3: not UTF-8"))
    }

    @Test func relativeListDirectory() {
        #expect(parse("t.wav\n../x.wav\n", dir: "lists").entries == ["lists/t.wav", "x.wav"])
        #expect(SoundList.directory(of: "a.m3u") == ".")
        #expect(SoundList.directory(of: "/a.m3u") == "/")
        #expect(SoundList.directory(of: "/m/l/a.m3u") == "/m/l")
    }

    @Test func kindsAndFolderNames() {
        #expect(SoundList.kind(of: "/m", isDirectory: true) == .folder)
        #expect(SoundList.kind(of: "/m/List.M3U", isDirectory: false) == .playlist)
        #expect(SoundList.kind(of: "/m/a.m3u8", isDirectory: false) == .playlist)
        #expect(SoundList.kind(of: "/m/a.wav", isDirectory: false) == .file)
        #expect(SoundList.isSoundName("A.WAV") && SoundList.isSoundName("b.opus") && SoundList.isSoundName("c.aiff"))
        #expect(!SoundList.isSoundName(".hidden.wav") && !SoundList.isSoundName("notes.txt") && !SoundList.isSoundName("wav"))
        #expect(SoundList.sortedNames(["b.wav", "B.wav", "a.wav", "é.wav"]) == ["B.wav", "a.wav", "b.wav", "é.wav"])
    }
}

@Suite("ShuffleBag")
struct ShuffleBagTests {
    /// Rings `rings` times, as the daemon does: the order, then the first entry recorded as played.
    func rings(_ entries: [String], _ rings: Int, seed: UInt64) -> [String] {
        var rng = PropertyRNG(seed: seed)
        var played: [String] = []
        var rung: [String] = []
        for _ in 0..<rings {
            let order = ShuffleBag.order(entries: entries, played: played, using: &rng)
            #expect(Set(order) == Set(entries) && order.count == entries.count, "every entry is in the order: \(order)")
            rung.append(order[0])
            played = ShuffleBag.record(tried: [order[0]], played: played, entries: entries)
            // Said twice (the choice, then the output's word on it): no change.
            #expect(ShuffleBag.record(tried: [order[0]], played: played, entries: entries) == played)
        }
        return rung
    }

    @Test(arguments: [1, 2, 3, 5])
    func eachRoundPlaysEveryEntryOnceAndNeverTheSameTwiceInARow(count: Int) {
        let entries = (0..<count).map { "/m/\($0).wav" }
        for seed in UInt64(1)...40 {
            let rung = rings(entries, count * 6, seed: seed)
            for round in stride(from: 0, to: rung.count, by: count) {
                #expect(Set(rung[round..<round + count]) == Set(entries), "round at \(round) of seed \(seed): \(rung)")
            }
            if count > 1 {
                for i in 1..<rung.count { #expect(rung[i] != rung[i - 1], "seed \(seed): \(rung)") }
            }
        }
    }

    @Test func failedEntriesCountAsPlayedAndTheTailIsTheFallbacks() {
        var rng = PropertyRNG(seed: 7)
        let entries = ["/a", "/b", "/c", "/d"]
        let order = ShuffleBag.order(entries: entries, played: ["/b", "/c"], using: &rng)
        #expect(Set(order.prefix(2)) == ["/a", "/d"] && Set(order.suffix(2)) == ["/b", "/c"], "\(order)")
        // The first failed, the second played: both are done for this round.
        let played = ShuffleBag.record(tried: [order[0], order[1]], played: ["/b", "/c"], entries: entries)
        #expect(Set(played) == Set(entries))
        #expect(played.last == order[1])
        // A new round: every entry, the last one played not first.
        for seed in UInt64(1)...30 {
            var r = PropertyRNG(seed: seed)
            let next = ShuffleBag.order(entries: entries, played: played, using: &r)
            #expect(next.first != order[1] && Set(next) == Set(entries))
        }
    }

    @Test func vanishedEntriesDropOutAndNewOnesJoin() {
        var rng = PropertyRNG(seed: 3)
        let order = ShuffleBag.order(entries: ["/a", "/b", "/new"], played: ["/a", "/gone"], using: &rng)
        #expect(Set(order.prefix(2)) == ["/b", "/new"] && order.last == "/a", "\(order)")
        #expect(ShuffleBag.record(tried: ["/b"], played: ["/a", "/gone"], entries: ["/a", "/b", "/new"]) == ["/a", "/b"])
        #expect(ShuffleBag.order(entries: [], played: ["/a"], using: &rng).isEmpty)
    }

    @Test func historyKeepsPlayedAcrossAWrite() throws {
        var record = AlarmRecord(name: "tones")
        record.played = ["/m/a b.wav", "/m/\"q\".wav", "/m/é\\x.wav"]
        #expect(!record.isEmpty)
        let text = AlarmHistory.serialize(["tones": record])
        #expect(text.contains("played = ["))
        let back = try AlarmHistory.parse(text)
        #expect(back["tones"]?.played == record.played, "\(text)")
        #expect(historyError("[a]\nplayed = \"/x.wav\"\n") != nil, "a string is not a list")
    }
}
