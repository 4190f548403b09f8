/// The offset rules of one time zone, read from the system's time-zone database (TZif files)
/// or from a POSIX `TZ` string. A value: resolving times needs no global state, so tests can
/// use any zone side by side, and the executable uses the one `TZ` or `/etc/localtime` names.
public struct TimeZoneRules: Sendable, Hashable {
    public struct LocalType: Sendable, Hashable {
        public var offset: Int
        public var isDaylight: Bool
        public var abbreviation: String
    }

    public var name: String
    /// UTC seconds at which `types[typeIndices[i]]` begins.
    var transitions: [Int64]
    var typeIndices: [Int]
    var types: [LocalType]
    /// Rules for instants after the last transition (and for zones given as a POSIX string).
    var footer: PosixTimeZoneRule?

    public static let utc = TimeZoneRules(name: "UTC", transitions: [], typeIndices: [],
                                          types: [LocalType(offset: 0, isDaylight: false, abbreviation: "UTC")], footer: nil)

    init(name: String, transitions: [Int64], typeIndices: [Int], types: [LocalType], footer: PosixTimeZoneRule?) {
        self.name = name; self.transitions = transitions; self.typeIndices = typeIndices
        self.types = types; self.footer = footer
    }

    public init(name: String, posix: PosixTimeZoneRule) {
        self.init(name: name, transitions: [], typeIndices: [],
                  types: [LocalType(offset: posix.standardOffset, isDaylight: false, abbreviation: posix.standardName)],
                  footer: posix)
    }

    public enum TZifError: Error, Equatable, CustomStringConvertible {
        case notTZif
        case truncated
        case badFooter(String)
        /// Well-formed bytes that break RFC 8536's rules (an offset of a day or more,
        /// transitions out of order): answering with them would give wrong times.
        case invalid(String)
        public var description: String {
            switch self {
            case .notTZif: return "not a TZif time-zone file"
            case .truncated: return "truncated TZif file"
            case .badFooter(let f): return "unreadable rule '\(f.printable)' in TZif file"
            case .invalid(let why): return "invalid TZif file: \(why)"
            }
        }
    }

    /// UTC offsets a zone may have (RFC 8536 3.2, exclusive of both ends).
    static let acceptedOffsets = (-89_999)...93_599

    /// Parses a TZif file (RFC 8536), preferring its 64-bit section.
    public init(name: String, tzif bytes: [UInt8]) throws(TZifError) {
        var pos = 0
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        func header(_ at: Int) throws(TZifError) -> (version: UInt8, counts: [Int]) {
            guard bytes.count >= at + 44 else { throw .truncated }
            guard bytes[at] == 0x54, bytes[at + 1] == 0x5A, bytes[at + 2] == 0x69, bytes[at + 3] == 0x66 else { throw .notTZif }
            // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
            return (bytes[at + 4], (0..<6).map { Int(u32(at + 20 + 4 * $0)) })
        }
        func blockSize(_ c: [Int], timeSize: Int) -> Int {
            c[3] * timeSize + c[3] + c[4] * 6 + c[5] + c[2] * (timeSize + 4) + c[1] + c[0]
        }

        var (version, counts) = try header(0)
        var timeSize = 4
        pos = 44
        if version >= 0x32 {  // '2' or later: skip the 32-bit block, read the 64-bit one
            pos += blockSize(counts, timeSize: 4)
            (version, counts) = try header(pos)
            pos += 44
            timeSize = 8
        }
        guard bytes.count >= pos + blockSize(counts, timeSize: timeSize) else { throw .truncated }
        let (timecnt, typecnt, charcnt) = (counts[3], counts[4], counts[5])
        guard typecnt >= 1 else { throw .notTZif }

        var transitions: [Int64] = []
        transitions.reserveCapacity(timecnt)
        for i in 0..<timecnt {
            let at = pos + i * timeSize
            if timeSize == 8 {
                transitions.append(Int64(bitPattern: UInt64(u32(at)) << 32 | UInt64(u32(at + 4))))
            } else {
                transitions.append(Int64(Int32(bitPattern: u32(at))))
            }
        }
        pos += timecnt * timeSize
        let indices = (0..<timecnt).map { Int(bytes[pos + $0]) }
        pos += timecnt
        var raw: [(Int, Bool, Int)] = []
        for i in 0..<typecnt {
            let at = pos + 6 * i
            raw.append((Int(Int32(bitPattern: u32(at))), bytes[at + 4] != 0, Int(bytes[at + 5])))
        }
        pos += typecnt * 6
        let chars = Array(bytes[pos..<pos + charcnt])
        pos += charcnt
        // RFC 8536 3.2: utoff MUST NOT be -2^31 and SHOULD lie in (-25h, +26h). Nothing real
        // comes near (the extremes are -12h and +14h); beyond, the offset is a corrupt file.
        for (offset, _, _) in raw where !TimeZoneRules.acceptedOffsets.contains(offset) {
            throw .invalid("UTC offset \(offset) s is outside -25h to +26h")
        }
        // The lookups binary-search the transitions: out of order, they would answer wrongly.
        for i in transitions.indices.dropFirst() where transitions[i - 1] >= transitions[i] {
            throw .invalid("transition times are not in increasing order")
        }
        let types = raw.map { (offset, dst, abbrIndex) -> LocalType in
            let tail = abbrIndex < chars.count ? chars[abbrIndex...] : []
            let abbr = String(decoding: tail.prefix { $0 != 0 }, as: UTF8.self)
            return LocalType(offset: offset, isDaylight: dst, abbreviation: abbr)
        }
        guard indices.allSatisfy({ $0 < types.count }) else { throw .notTZif }
        pos += counts[2] * (timeSize + 4) + counts[1] + counts[0]

        var footer: PosixTimeZoneRule?
        if timeSize == 8, pos < bytes.count, bytes[pos] == 0x0A {
            let rest = bytes[(pos + 1)...]
            let text = String(decoding: rest.prefix { $0 != 0x0A }, as: UTF8.self)
            if !text.isEmpty {
                do { footer = try PosixTimeZoneRule(text) } catch { throw .badFooter(text) }
            }
        }
        self.init(name: name, transitions: transitions, typeIndices: indices, types: types, footer: footer)
    }

    /// The local type in force at a UTC instant (whole seconds).
    public func localType(atUTC t: Int64) -> LocalType {
        if let footer, transitions.last.map({ t >= $0 }) ?? true {
            let (offset, dst) = footer.offset(atUTC: t)
            return LocalType(offset: offset, isDaylight: dst,
                             abbreviation: dst ? (footer.daylightName ?? footer.standardName) : footer.standardName)
        }
        // Every public initialiser leaves at least one type; UTC stands in should that ever fail.
        let fallback = types.first ?? LocalType(offset: 0, isDaylight: false, abbreviation: "UTC")
        // Binary search: the last transition at or before t.
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if transitions[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        if transitions.isEmpty { return fallback }  // no transitions, no footer: type 0 (RFC 8536 3.2)
        if lo == 0 {
            // Before the first transition: the first standard-time type (RFC 8536 3.2).
            return types.first { !$0.isDaylight } ?? fallback
        }
        let index = lo - 1 < typeIndices.count ? typeIndices[lo - 1] : 0
        return index < types.count ? types[index] : fallback
    }

    public func offset(atUTC t: Int64) -> Int { localType(atUTC: t).offset }

    /// The wall-clock reading at an instant.
    public func localTime(at instant: Instant) -> LocalDateTime {
        LocalDateTime(secondsAsIfUTC: instant.seconds.plus(Int64(offset(atUTC: instant.seconds))))
    }

    /// The instant a wall-clock reading names, by the rules of docs/guide.md ("Rules"):
    /// a reading that occurs twice (fall back) means its first occurrence; one that does not
    /// occur (spring forward) means the first instant after the gap, the moment clocks jump.
    /// Saturating arithmetic throughout: a reading no calendar holds gives an instant at an end
    /// of the time line, which callers then refuse, never a trap.
    public func instant(for local: LocalDateTime) -> Instant {
        let l = local.secondsAsIfUTC
        // Most readings are days from any change: one offset, so one instant, and no sets made
        // (they were half of planning 2,000 alarms). At an end of the time line the instant
        // saturates, as the gap's search below would give it.
        if let only = constantOffset(from: l.minus(2 * 86_400), through: l.plus(2 * 86_400)) {
            return Instant(seconds: l.minus(Int64(only)))
        }
        let offsets = offsets(near: l)
        if let first = instants(for: l, offsets: offsets).first { return Instant(seconds: first) }

        // In a gap: find the first instant whose local reading is past `l`. Within the gap's span
        // the reading jumps once, so the search is over a monotonic function.
        let sorted = offsets.sorted()
        var lo = l.minus(Int64(sorted.last ?? 0)), hi = l.minus(Int64(sorted.first ?? 0))
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if mid.plus(Int64(offset(atUTC: mid))) > l { hi = mid } else { lo = mid + 1 }
        }
        return Instant(seconds: lo)
    }

    /// Every instant whose wall-clock reading is `local`, in order: one, two when the clocks
    /// fall back over it (a snooze `--until` the repeated hour means its next pass), none in a
    /// spring-forward gap.
    public func instants(for local: LocalDateTime) -> [Instant] {
        let l = local.secondsAsIfUTC
        if let only = constantOffset(from: l.minus(2 * 86_400), through: l.plus(2 * 86_400)) {
            let t = l.minus(Int64(only))
            return t.plus(Int64(only)) == l ? [Instant(seconds: t)] : []
        }
        return instants(for: l, offsets: offsets(near: l)).map { Instant(seconds: $0) }
    }

    private func instants(for l: Int64, offsets: Set<Int>) -> [Int64] {
        Set(offsets.map { l.minus(Int64($0)) }).filter { t in t.plus(Int64(offset(atUTC: t))) == l }.sorted()
    }

    /// Offsets are below 26 h (RFC 8536; POSIX rules below 25 h), so any instant whose reading
    /// is `l` lies within 26 h of it: probing every 3 h over two days either side finds every
    /// offset in force there, however far a (POSIX, up to 167 h) transition time moves it.
    private func offsets(near l: Int64) -> Set<Int> {
        var offsets = Set<Int>()
        var probe = l.minus(2 * 86_400)
        let last = l.plus(2 * 86_400)
        // Most readings are days from any change: every probe would read the one offset.
        if let constant = constantOffset(from: probe, through: last) { return [constant] }
        while true {
            offsets.insert(offset(atUTC: probe))
            if probe >= last { break }
            probe = min(probe.plus(3 * 3600), last)
        }
        return offsets
    }

    /// The offset in force at every instant of [from, through] when the transitions show it
    /// cannot change there: none falls in (from, through], and the footer, whose rules change
    /// it anywhere, is not reached (or has no rules). Nil when it may change (the probes then look).
    private func constantOffset(from: Int64, through: Int64) -> Int? {
        if let footer {
            // A footer without daylight rules (Etc/UTC's `UTC0`) keeps one offset from the last transition on.
            if footer.daylightStart == nil || footer.daylightEnd == nil, transitions.last.map({ from >= $0 }) ?? true {
                return offset(atUTC: from)
            }
            guard let lastTransition = transitions.last, through < lastTransition else { return nil }
        }
        // The first transition after `from`.
        var lo = 0, hi = transitions.count
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if transitions[mid] <= from { lo = mid + 1 } else { hi = mid }
        }
        if lo < transitions.count, transitions[lo] <= through { return nil }
        return offset(atUTC: from)
    }
}
