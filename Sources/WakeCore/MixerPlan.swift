/// The mixer guard's decisions, as values: what a muted or turned-down output is raised to, what
/// is put back when the ring ends, which mixer stands behind a PCM name, and how a state is said.
/// The ALSA side (`Mixer` in WakeSystem) only reads and writes what these functions decide.

/// `--mixer`: whether wake may touch the mixer behind its device.
public enum MixerPolicy: Hashable, Sendable {
    /// Leave the mixer alone (`--mixer off`).
    case off
    /// Unmute and raise to at least `floor` percent while ringing (`--mixer auto`, `--min-volume`).
    case guardFloor(Int)

    public var floor: Int? { if case .guardFloor(let f) = self { return f } else { return nil } }
}

/// One playback element's levels, per channel. An element whose volume (or switch) is joined
/// has one value for all its channels; one without a volume (or switch) has none.
public struct MixerLevels: Hashable, Sendable {
    /// Raw values in `range`, one per channel (or one when joined).
    public var volumes: [Int]
    /// Playback switches: true is on (unmuted), one per channel (or one when joined).
    public var switches: [Bool]

    public init(volumes: [Int], switches: [Bool]) {
        self.volumes = volumes
        self.switches = switches
    }

    public var isMuted: Bool { switches.contains(false) }
}

/// A playback element as read: its name, its raw volume range and its levels.
public struct MixerReading: Hashable, Sendable {
    /// The element, `Master` or `PCM`.
    public var element: String
    public var range: ClosedRange<Int>
    public var levels: MixerLevels

    public init(element: String, range: ClosedRange<Int>, levels: MixerLevels) {
        self.element = element; self.range = range; self.levels = levels
    }

    /// Muted, or below `floor` percent: what the guard raises.
    public func isQuiet(floor: Int) -> Bool { levels.isMuted || (percent ?? 100) < floor }

    /// The loudest channel, in percent as amixer shows it (rounded).
    public var percent: Int? { levels.volumes.map { MixerPlan.percent($0, in: range) }.max() }

    /// `Master 10 %` (without the switch).
    public var volumeSummary: String { element + (percent.map { " \($0) %" } ?? "") }

    /// `Master 10 %, muted` / `Master 80 %` / `Master muted`.
    public var summary: String {
        var parts: [String] = []
        if let p = percent { parts.append("\(p) %") }
        if levels.isMuted { parts.append("muted") }
        return element + (parts.isEmpty ? "" : " " + parts.joined(separator: ", "))
    }
}

public enum MixerPlan {
    /// `raw` as a percentage of `range`, rounded to the nearest (amixer's figure).
    /// Out of range: clamped to 0 or 100.
    public static func percent(_ raw: Int, in range: ClosedRange<Int>) -> Int {
        // A range read from a save file can be anything an Int holds: its span and the products
        // below are taken in Double when they would overflow (the figure is only said).
        let (span, wide) = range.upperBound.subtractingReportingOverflow(range.lowerBound)
        let clamped = min(max(raw, range.lowerBound), range.upperBound)
        guard !wide, span < Int.max / 200 else {
            let whole = Double(range.upperBound) - Double(range.lowerBound)
            guard whole > 0 else { return 100 }
            return Int(((Double(clamped) - Double(range.lowerBound)) / whole * 100).rounded())
        }
        guard span > 0 else { return 100 }
        let above = clamped - range.lowerBound
        return (above * 200 + span) / (span * 2)
    }

    /// The smallest raw value that is at least `floor` percent of `range`.
    public static func rawFloor(_ floor: Int, in range: ClosedRange<Int>) -> Int {
        let f = min(max(floor, 0), 100)
        let (span, wide) = range.upperBound.subtractingReportingOverflow(range.lowerBound)
        guard !wide, span < Int.max / 100 else {
            let raw = Double(range.lowerBound) + (Double(range.upperBound) - Double(range.lowerBound)) * Double(f) / 100
            return raw >= Double(range.upperBound) ? range.upperBound : max(range.lowerBound, Int(raw.rounded(.up)))
        }
        guard span > 0 else { return range.upperBound }
        return range.lowerBound + (span * f + 99) / 100
    }

    /// What to set while ringing: every switch on, every channel at least `floor` percent and
    /// never lower than it was. Nil when the levels are fine as they are (nothing to change,
    /// nothing to save).
    public static func raised(_ reading: MixerReading, floor: Int) -> MixerLevels? {
        let minimum = rawFloor(floor, in: reading.range)
        let target = MixerLevels(volumes: reading.levels.volumes.map { max($0, minimum) },
                                 switches: reading.levels.switches.map { _ in true })
        return target == reading.levels ? nil : target
    }

    /// What to put back when the ring ends: per channel and per switch, the saved value where the
    /// value now is still the one wake set; a value someone changed during the ring (the sleeper
    /// turned it down, or up) is theirs and stays. `keptChanges` says whether any was kept.
    public static func restored(saved: MixerLevels, applied: MixerLevels, current: MixerLevels)
        -> (levels: MixerLevels, keptChanges: Bool) {
        var kept = false
        func pick<T: Equatable>(_ s: [T], _ a: [T], _ c: [T]) -> [T] {
            // A channel layout that changed under us (another sink behind the same control):
            // nothing of it was ours to restore.
            guard s.count == a.count, a.count == c.count else {
                if !c.isEmpty || !s.isEmpty { kept = true }
                return c
            }
            return c.indices.map { i in
                if c[i] == a[i] { return s[i] }
                kept = true
                return c[i]
            }
        }
        let levels = MixerLevels(volumes: pick(saved.volumes, applied.volumes, current.volumes),
                                 switches: pick(saved.switches, applied.switches, current.switches))
        return (levels, kept)
    }

    /// What the dry run and the armed line say about the mixer found now.
    public static func describe(_ reading: MixerReading, policy: MixerPolicy) -> String {
        guard let floor = policy.floor else { return "\(reading.summary): left alone: --mixer off" }
        let quiet = (reading.percent ?? 100) < floor
        let what = "\(reading.levels.isMuted ? "output muted" : "output turned down") (\(reading.volumeSummary))"
        switch (reading.levels.isMuted, quiet) {
        case (true, true): return "\(what): it will be unmuted and raised to \(floor) % while ringing"
        case (true, false): return "\(what): it will be unmuted while ringing"
        case (false, true): return "\(what): it will be raised to \(floor) % while ringing"
        case (false, false): return "\(reading.summary): at or above --min-volume \(floor) %, left as it is"
        }
    }

    /// The mixer (an ALSA control name for `snd_mixer_attach`) behind a PCM name, or nil when
    /// wake does not know one: `default` and `pulse` have their own controls (the sound
    /// server's plugins map `Master` to the default sink), `hw:N` and `plughw:N` (any device,
    /// `CARD=` forms too) the card's; `null`, `file:` and other plugins have none.
    public static func control(forDevice device: String) -> String? {
        if device == "default" || device == "pulse" { return device }
        for prefix in ["hw:", "plughw:"] where device.hasPrefix(prefix) {
            let rest = device.dropFirst(prefix.count)
            var card = rest.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            if card.hasPrefix("CARD=") { card = String(card.dropFirst(5)) }
            guard !card.isEmpty, card.utf8.allSatisfy({ $0 < 0x80 }),
                  card.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else { return nil }
            return "hw:" + card
        }
        return nil
    }

    /// The elements tried, in order, on a mixer: the master volume, else the PCM volume.
    public static let elements = ["Master", "PCM"]
}
