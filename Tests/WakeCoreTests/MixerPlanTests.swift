import Testing
import WakeCore

/// The mixer guard's decisions (issue 16), without a mixer: PulseAudio's range 0...65536 and a
/// small hardware range, muted and not, per channel.
@Suite("MixerPlan")
struct MixerPlanTests {
    static let pulse = 0...65536

    func reading(_ volumes: [Int], _ switches: [Bool], range: ClosedRange<Int> = pulse) -> MixerReading {
        MixerReading(element: "Master", range: range, levels: MixerLevels(volumes: volumes, switches: switches))
    }

    @Test("percent as amixer shows it, and the raw floor reads back as at least the floor")
    func percents() {
        #expect(MixerPlan.percent(6553, in: Self.pulse) == 10)  // pactl's 10 %
        #expect(MixerPlan.percent(32768, in: Self.pulse) == 50)
        #expect(MixerPlan.percent(0, in: Self.pulse) == 0)
        #expect(MixerPlan.percent(65536, in: Self.pulse) == 100)
        #expect(MixerPlan.percent(70000, in: Self.pulse) == 100)  // out of range: clamped, no trap
        #expect(MixerPlan.percent(-5, in: -10...10) == 25)
        // A range from a save file may be anything an Int holds: no overflow, no trap.
        #expect(MixerPlan.percent(0, in: Int.min...Int.max) == 50)
        #expect(MixerPlan.percent(Int.max, in: Int.min...Int.max) == 100)
        #expect(MixerPlan.percent(Int.max, in: 0...Int.max) == 100)
        #expect(MixerPlan.percent(Int.min, in: Int.min...(-1)) == 0)
        #expect(MixerPlan.rawFloor(100, in: Int.min...Int.max) == Int.max)
        #expect(MixerPlan.rawFloor(0, in: Int.min...Int.max) == Int.min)
        #expect(MixerPlan.percent(MixerPlan.rawFloor(50, in: Int.min...Int.max), in: Int.min...Int.max) == 50)
        #expect(MixerPlan.percent(MixerPlan.rawFloor(50, in: 0...Int.max), in: 0...Int.max) == 50)
        #expect(MixerPlan.rawFloor(50, in: Self.pulse) == 32768)
        #expect(MixerPlan.rawFloor(50, in: 0...31) == 16)
        for floor in 1...100 {
            for range in [Self.pulse, 0...31, 0...87, -9999...0, 0...1] {
                let raw = MixerPlan.rawFloor(floor, in: range)
                #expect(range.contains(raw))
                #expect(MixerPlan.percent(raw, in: range) >= floor, "floor \(floor) in \(range): raw \(raw)")
            }
        }
    }

    @Test("muted at 10 %: unmuted and raised to the floor, every channel")
    func mutedAndLow() {
        let r = reading([6553, 6553], [false])
        #expect(MixerPlan.raised(r, floor: 50) == MixerLevels(volumes: [32768, 32768], switches: [true]))
    }

    @Test("raised to the floor only: a louder channel keeps its level, a muted loud output is only unmuted")
    func floorOnly() {
        #expect(MixerPlan.raised(reading([6553, 52429], [true, true]), floor: 50) == MixerLevels(volumes: [32768, 52429], switches: [true, true]))
        #expect(MixerPlan.raised(reading([52429, 52429], [false, true]), floor: 50) == MixerLevels(volumes: [52429, 52429], switches: [true, true]))
    }

    @Test("loud enough and unmuted: nothing to do (nil), also without a volume or a switch")
    func nothingToDo() {
        #expect(MixerPlan.raised(reading([32768, 40000], [true]), floor: 50) == nil)
        #expect(MixerPlan.raised(reading([], [true]), floor: 50) == nil)
        #expect(MixerPlan.raised(reading([32768], []), floor: 50) == nil)
        #expect(MixerPlan.raised(reading([], [false]), floor: 50) == MixerLevels(volumes: [], switches: [true]))
    }

    @Test("restore: the saved levels where the mixer is still as wake set it")
    func restoreExactly() {
        let saved = MixerLevels(volumes: [6553, 7000], switches: [false])
        let applied = MixerLevels(volumes: [32768, 32768], switches: [true])
        let r = MixerPlan.restored(saved: saved, applied: applied, current: applied)
        #expect(r.levels == saved)
        #expect(!r.keptChanges)
    }

    @Test("restore: a channel or switch the sleeper changed while ringing is theirs and stays")
    func restoreKeepsChanges() {
        let saved = MixerLevels(volumes: [6553, 6553], switches: [false])
        let applied = MixerLevels(volumes: [32768, 32768], switches: [true])
        let current = MixerLevels(volumes: [20000, 32768], switches: [true])
        let r = MixerPlan.restored(saved: saved, applied: applied, current: current)
        #expect(r.levels == MixerLevels(volumes: [20000, 6553], switches: [false]))
        #expect(r.keptChanges)
        let muted = MixerPlan.restored(saved: saved, applied: applied, current: MixerLevels(volumes: [32768, 32768], switches: [false]))
        #expect(muted.levels == MixerLevels(volumes: [6553, 6553], switches: [false]))
        #expect(muted.keptChanges)
    }

    @Test("restore: channels that changed in number (another sink behind the control) are not touched")
    func restoreOtherLayout() {
        let saved = MixerLevels(volumes: [6553, 6553], switches: [false])
        let applied = MixerLevels(volumes: [32768, 32768], switches: [true])
        let current = MixerLevels(volumes: [32768], switches: [true])
        let r = MixerPlan.restored(saved: saved, applied: applied, current: current)
        #expect(r.levels.volumes == [32768])
        #expect(r.levels.switches == [false])
        #expect(r.keptChanges)
    }

    @Test("what the dry run says", arguments: [
        ([6553, 6553], [false], MixerPolicy.guardFloor(50), "output muted (Master 10 %): it will be unmuted and raised to 50 % while ringing"),
        ([52429, 52429], [false], .guardFloor(50), "output muted (Master 80 %): it will be unmuted while ringing"),
        ([6553, 6553], [true], .guardFloor(50), "output turned down (Master 10 %): it will be raised to 50 % while ringing"),
        ([52429, 52429], [true], .guardFloor(50), "Master 80 %: at or above --min-volume 50 %, left as it is"),
        ([6553, 6553], [false], .off, "Master 10 %, muted: left alone: --mixer off"),
    ])
    func describe(volumes: [Int], switches: [Bool], policy: MixerPolicy, text: String) {
        #expect(MixerPlan.describe(reading(volumes, switches), policy: policy) == text)
    }

    @Test("the mixer behind a PCM name", arguments: [
        ("default", "default"), ("pulse", "pulse"), ("hw:0", "hw:0"), ("hw:1,0", "hw:1"), ("plughw:2,3", "hw:2"),
        ("plughw:CARD=PCH,DEV=0", "hw:PCH"), ("hw:PCH", "hw:PCH"), ("null", nil), ("file:'/tmp/x.raw',raw", nil),
        ("dmix", nil), ("hw:", nil), ("plughw:,0", nil), ("hw:x y", nil), ("hw:\u{1B}[2J", nil), ("sysdefault", nil),
    ] as [(String, String?)])
    func control(device: String, control: String?) {
        #expect(MixerPlan.control(forDevice: device) == control)
    }
}

@Suite("MixerSaveFile")
struct MixerSaveFileTests {
    static let sample = MixerSaveFile(
        owner: .init(pid: 4242, startTicks: 1_234_567, bootID: "6f1c0a4e-0000-4000-8000-000000000000"),
        server: "unix:/run/user/1000/pulse/native",
        entries: [
            .init(mixer: "default", saved: MixerReading(element: "Master", range: 0...65536,
                                                        levels: MixerLevels(volumes: [6553, 6553], switches: [false])),
                  applied: MixerLevels(volumes: [32768, 32768], switches: [true])),
            .init(mixer: "hw:0", saved: MixerReading(element: "PCM", range: -10...31, levels: MixerLevels(volumes: [-3], switches: [])),
                  applied: MixerLevels(volumes: [16], switches: [])),
        ])

    @Test("round trip")
    func roundTrip() throws {
        let text = Self.sample.serialize()
        #expect(try MixerSaveFile.parse(text) == Self.sample)
        #expect(text.contains("entry\tdefault\tMaster\t0\t65536\t6553,6553\t0\t32768,32768\t1\n"))
        var empty = Self.sample
        empty.server = ""
        empty.entries = []
        #expect(try MixerSaveFile.parse(empty.serialize()) == empty)
    }

    @Test("anything else is an error with its line, never a trap", arguments: [
        ("", 1), ("owner\t1\t2\n", 1), ("owner\t-1\t2\tb\n", 1), ("owner\tx\t2\tb\n", 1), ("owner\t1\t2\tb\nowner\t1\t2\tb\n", 2),
        ("owner\t1\t2\tb\nentry\tdefault\n", 2), ("owner\t1\t2\tb\nentry\td\tM\t10\t0\t1\t1\t1\t1\n", 2),
        ("owner\t1\t2\tb\nentry\td\tM\t0\t10\t11\t1\t1\t1\n", 2), ("owner\t1\t2\tb\nentry\td\tM\t0\t10\t1,2\t1\t1\t1\n", 2),
        ("owner\t1\t2\tb\nentry\td\tM\t0\t10\t1\t2\t1\t1\n", 2), ("owner\t1\t2\tb\nentry\td\tM\t0\t10\t,\t1\t,\t1\n", 2),
        ("owner\t1\t2\tb\nentry\t\tM\t0\t10\t1\t1\t1\t1\n", 2), ("owner\t1\t2\tb\nwhat\n", 2),
        ("owner\t1\t2\tb\nentry\td\tM\t0\t10\t1\t1\t1\t1\nentry\td\tM\t0\t10\t1\t1\t1\t1\n", 3),
        ("owner\t1\t2\tb\nentry\td\tM\t0\t99999999999999999999\t1\t1\t1\t1\n", 2),
        ("owner\t1\t2\tb\nentry\td\tM\t0\t10\t" + Array(repeating: "1", count: 40).joined(separator: ",") + "\t1\t1\t1\n", 2),
        ("entry\td\tM\t0\t10\t1\t1\t1\t1\n", 1),
    ])
    func corrupt(text: String, line: Int) {
        #expect(throws: MixerSaveFile.ParseError.self) { try MixerSaveFile.parse(text) }
        do { _ = try MixerSaveFile.parse(text) } catch { #expect(error.line >= line) }
    }

    /// Issue 37 (13): a `pulse-sink:` entry claiming 0 to 6553600 set the sink to 10,000 %
    /// (+120 dB) and the line said "100 %". A sound server's entry must say the server's own
    /// range; its levels are then at most PA_VOLUME_NORM, which is all wake ever saves or sets.
    @Test("a sound server's entry must say the server's range, 0 to 65536: anything else is refused with its line")
    func soundServerRange() throws {
        let head = "owner\t1\t2\tb\nserver\tunix:/run/user/1000/pulse/native\n"
        for mixer in ["pulse-sink:speaker", "pulse-stream-restore:sink-input-by-media-role:alarm"] {
            let hostile = head + "entry\t\(mixer)\tsink\t0\t6553600\t6553600,6553600\t1\t32768,32768\t1\n"
            do {
                _ = try MixerSaveFile.parse(hostile)
                Issue.record("\(mixer) with the range 0 to 6553600 was accepted")
            } catch {
                #expect(error.line == 3 && error.message.contains("6553600") && error.message.contains("65536 (100 %)"), "\(error)")
            }
            // wake never sets more than PA_VOLUME_NORM: an applied level above it is refused.
            let loud = head + "entry\t\(mixer)\tsink\t0\t65536\t6553,6553\t1\t70000,70000\t1\n"
            #expect(throws: MixerSaveFile.ParseError.self) { try MixerSaveFile.parse(loud) }
            // A sink the user ran at 120 % and muted was saved as it was, and goes back so; beyond
            // twice full volume no desktop goes: refused.
            let over = head + "entry\t\(mixer)\tsink\t0\t65536\t78643,78643\t0\t32768,32768\t1\n"
            #expect(try MixerSaveFile.parse(over).entries.first?.saved.levels.volumes == [78643, 78643])
            let absurd = head + "entry\t\(mixer)\tsink\t0\t65536\t140000,140000\t0\t32768,32768\t1\n"
            #expect(throws: MixerSaveFile.ParseError.self) { try MixerSaveFile.parse(absurd) }
            let good = head + "entry\t\(mixer)\tsink\t0\t65536\t6553,6553\t0\t32768,32768\t1\n"
            let parsed = try MixerSaveFile.parse(good)
            #expect(parsed.entries.first?.saved.range == MixerSaveFile.soundServerRange)
            #expect(parsed.entries.first?.saved.percent == 10, "the level said is the level set: 10 %")
            #expect(MixerSaveFile.isSoundServer(mixer))
        }
        // An ALSA element keeps its own range (checked against the element when it is put back).
        let alsa = head + "entry\thw:0\tPCM\t-10\t6553600\t5\t-\t16\t-\n"
        #expect(try MixerSaveFile.parse(alsa).entries.first?.saved.range == -10...6553600)
        #expect(!MixerSaveFile.isSoundServer("default") && !MixerSaveFile.isSoundServer("hw:0"))
    }

    @Test("what a refused file says is escaped: no terminal control reaches the line")
    func refusalsAreEscaped() {
        let head = "owner\t1\t2\tb\n"
        for text in [head + "entry\td\tM\t0\t10\t\u{1B}[2J\t1\t1\t1\n", head + "entry\td\tM\t0\t\u{1B}]0;x\u{7}\t1\t1\t1\t1\n",
                     head + "entry\td\u{200F}\tM\t0\t10\t1\t1\t1\t1\nentry\td\u{200F}\tM\t0\t10\t1\t1\t1\t1\n"] {
            do {
                _ = try MixerSaveFile.parse(text)
                Issue.record("accepted: \(text.debugDescription)")
            } catch {
                #expect(!error.description.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x200F },
                        "\(error.description.debugDescription)")
            }
        }
    }

    @Test("arbitrary bytes never trap")
    func fuzz() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("owner\tentry server 0123456789,-\n#\r")
        for _ in 0..<2000 {
            let n = Int.random(in: 0..<80, using: &rng)
            let text = String((0..<n).map { _ in alphabet.randomElement(using: &rng)! })
            _ = try? MixerSaveFile.parse(text)
        }
        let base = Self.sample.serialize()
        for cut in stride(from: 0, to: base.utf8.count, by: 3) {
            _ = try? MixerSaveFile.parse(String(decoding: Array(base.utf8.prefix(cut)), as: UTF8.self))
        }
    }
}
