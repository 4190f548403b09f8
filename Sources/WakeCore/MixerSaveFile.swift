/// The file a ringing wake writes before it changes a mixer (`mixer-PID.state` under the state
/// home), so that when it is killed mid-ring the next wake to start can put the levels back.
///
/// ```
/// # wake: mixer levels a ringing wake changed, put back by the next wake to start once it is gone.
/// owner	4242	1234567	6f1c0a4e-...
/// server	unix:/run/user/1000/pulse/native
/// entry	default	Master	0	65536	6553,6553	0	32768,32768	1
/// ```
///
/// Fields are separated by tabs. `owner`: the process ID, its start time (clock ticks since
/// boot, field 22 of /proc/PID/stat: a reused ID has another) and the boot ID (after a reboot
/// neither means anything). `server`: the sound server the levels belong to (`PULSE_SERVER`,
/// else `XDG_RUNTIME_DIR`; may be empty). Each `entry`: the mixer, its element, the raw volume
/// range, the saved volumes and switches, and the ones wake set (`-` for none; switches as
/// `0`/`1` per channel). Parsing is strict and never traps: anything else is a `ParseError`
/// with its line.
///
/// Every level is checked against the range of what it belongs to, since the file is read back
/// by a restore that sets what it says: an ALSA element's range is read from the element itself
/// when it is put back (`MixerStateStore.restore`), and a sound server's sink or stream entry
/// (`pulse-sink:NAME`, `pulse-stream-restore:ID`) must say the server's own, 0 to
/// `PA_VOLUME_NORM` (65536, 100 %), the only range wake writes for it: a file claiming
/// 0 to 6553600 would otherwise set a sink to 10,000 % (+120 dB) and call it "100 %".
public struct MixerSaveFile: Hashable, Sendable {
    public struct Owner: Hashable, Sendable {
        public var pid: Int32
        public var startTicks: UInt64
        public var bootID: String
        public init(pid: Int32, startTicks: UInt64, bootID: String) {
            self.pid = pid; self.startTicks = startTicks; self.bootID = bootID
        }
    }

    public struct Entry: Hashable, Sendable {
        /// The ALSA control name, `default` or `hw:0`.
        public var mixer: String
        /// The element and the levels before wake changed them.
        public var saved: MixerReading
        /// The levels wake set.
        public var applied: MixerLevels
        public init(mixer: String, saved: MixerReading, applied: MixerLevels) {
            self.mixer = mixer; self.saved = saved; self.applied = applied
        }
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public var owner: Owner
    public var server: String
    public var entries: [Entry]

    public init(owner: Owner, server: String, entries: [Entry]) {
        self.owner = owner; self.server = server; self.entries = entries
    }

    /// Whether a name can be written in the format (no tab, newline or other control character).
    public static func storable(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }

    /// Channels per element at most: ALSA's simple mixer knows 32.
    static let channelLimit = 32

    /// Entry names for a sound server's sink (`pulse-sink:NAME`) and for what its stream restore
    /// remembers of wake's stream (`pulse-stream-restore:ID`), as opposed to an ALSA control.
    public static let sinkPrefix = "pulse-sink:"
    public static let streamRestorePrefix = "pulse-stream-restore:"

    /// A sound server's volumes, raw: `PA_VOLUME_NORM` (65536) is 100 %, what the server calls
    /// full volume. wake never raises a sink or a stream above it (the guard's floor is at most
    /// 100 %), and saves the levels in this range.
    public static let soundServerRange = 0...65536
    /// The most a sink or stream may have been at when wake saved it: a user may run a sink over
    /// 100 % (desktops offer up to 150 %), and one muted there is saved as it was, to be put back
    /// as it was. Twice full volume is beyond any desktop's slider: more is a hostile file.
    public static let soundServerSavedLimit = 2 * 65536

    /// Whether an entry names a sound server's sink or stream (its levels are in `soundServerRange`).
    public static func isSoundServer(_ mixer: String) -> Bool {
        mixer.hasPrefix(sinkPrefix) || mixer.hasPrefix(streamRestorePrefix)
    }

    public func serialize() -> String {
        var out = "# wake: mixer levels a ringing wake changed, put back by the next wake to start once it is gone.\n"
        out += "owner\t\(owner.pid)\t\(owner.startTicks)\t\(owner.bootID)\n"
        out += "server\t\(server)\n"
        for e in entries {
            let fields = [e.mixer, e.saved.element, String(e.saved.range.lowerBound), String(e.saved.range.upperBound),
                          Self.volumes(e.saved.levels), Self.switches(e.saved.levels),
                          Self.volumes(e.applied), Self.switches(e.applied)]
            out += "entry\t" + fields.joined(separator: "\t") + "\n"
        }
        return out
    }

    static func volumes(_ l: MixerLevels) -> String { l.volumes.isEmpty ? "-" : l.volumes.map(String.init).joined(separator: ",") }
    static func switches(_ l: MixerLevels) -> String { l.switches.isEmpty ? "-" : String(l.switches.map { $0 ? "1" : "0" }) }

    public static func parse(_ text: String) throws(ParseError) -> MixerSaveFile {
        var owner: Owner?
        var server: String?
        var entries: [Entry] = []
        var n = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            n += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.isEmpty || line.hasPrefix("#") { continue }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            func fail(_ m: String) -> ParseError { ParseError(line: n, message: m) }
            switch f[0] {
            case "owner":
                guard owner == nil else { throw fail("a second owner line") }
                guard f.count == 4, let pid = Int32(f[1]), pid > 0, let start = UInt64(f[2]), !f[3].isEmpty else {
                    throw fail("owner takes a process ID, its start time and the boot ID")
                }
                owner = Owner(pid: pid, startTicks: start, bootID: f[3])
            case "server":
                guard server == nil else { throw fail("a second server line") }
                guard f.count == 2 else { throw fail("server takes one field") }
                server = f[1]
            case "entry":
                guard f.count == 9 else { throw fail("an entry has 8 fields, not \(f.count - 1)") }
                guard storable(f[1]), storable(f[2]) else { throw fail("a mixer or element name that is empty or holds control characters") }
                guard let lo = Int(f[3]), let hi = Int(f[4]), lo < hi else {
                    throw fail("the volume range '\(TerminalText.printable(f[3], limit: 20))' to '\(TerminalText.printable(f[4], limit: 20))' is not a range")
                }
                if isSoundServer(f[1]), lo...hi != soundServerRange {
                    throw fail("'\(TerminalText.printable(f[1], limit: 60))' claims the volume range \(lo) to \(hi); a sound server's is "
                               + "\(soundServerRange.lowerBound) to \(soundServerRange.upperBound) (100 %)")
                }
                let savedRange = isSoundServer(f[1]) ? lo...soundServerSavedLimit : lo...hi
                let saved = MixerLevels(volumes: try volumes(f[5], savedRange, fail), switches: try switches(f[6], fail))
                let applied = MixerLevels(volumes: try volumes(f[7], lo...hi, fail), switches: try switches(f[8], fail))
                guard saved.volumes.count == applied.volumes.count, saved.switches.count == applied.switches.count else {
                    throw fail("the saved and the applied levels have different channels")
                }
                guard !entries.contains(where: { $0.mixer == f[1] }) else { throw fail("a second entry for mixer '\(TerminalText.printable(f[1], limit: 60))'") }
                entries.append(Entry(mixer: f[1], saved: MixerReading(element: f[2], range: lo...hi, levels: saved), applied: applied))
            default:
                throw fail("unknown line '\(TerminalText.printable(String(f[0]), limit: 20))'")
            }
        }
        guard let owner else { throw ParseError(line: n, message: "no owner line") }
        return MixerSaveFile(owner: owner, server: server ?? "", entries: entries)
    }

    private static func volumes(_ s: String, _ range: ClosedRange<Int>, _ fail: (String) -> ParseError) throws(ParseError) -> [Int] {
        if s == "-" { return [] }
        let parts = s.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= channelLimit else { throw fail("more than \(channelLimit) channels") }
        var out: [Int] = []
        for p in parts {
            guard let v = Int(p), range.contains(v) else { throw fail("volume '\(TerminalText.printable(String(p), limit: 20))' is not in \(range.lowerBound)...\(range.upperBound)") }
            out.append(v)
        }
        return out
    }

    private static func switches(_ s: String, _ fail: (String) -> ParseError) throws(ParseError) -> [Bool] {
        if s == "-" { return [] }
        guard s.count <= channelLimit, s.allSatisfy({ $0 == "0" || $0 == "1" }) else { throw fail("switches are 0 or 1 per channel, or -") }
        return s.map { $0 == "1" }
    }
}
