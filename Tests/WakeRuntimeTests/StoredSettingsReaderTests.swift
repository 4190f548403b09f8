import Testing
import WakeCore
@testable import WakeRuntime

/// SplitMix64, seeded: the same options on every run.
private struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func chance(_ percent: Int) -> Bool { next() % 100 < UInt64(percent) }
    mutating func pick<T>(_ a: [T]) -> T { a[Int(next() % UInt64(a.count))] }
}

/// Issue 51: `wake list` and the daemon's reload read each distinct set of stored options once
/// (`StoredSettingsReader`); what they get is what `RingSettings.tolerating` gives each alarm.
@Suite("Stored settings, read once per set of options")
struct StoredSettingsReaderTests {
    static let values: [String: [String]] = [
        "volume": ["60", "150", "0", "x"], "device": ["null", "", "hw:1,0"], "sound": ["/a.flac", ""],
        "fade-in": ["30s", "10m", "-1"], "ring-for": ["1m", "0", "200ms"], "snooze": ["5m", "10m"], "snooze-long": ["2m", "20m"],
        "late-limit": ["10m", "0", "soon"], "message": ["Dentist", String(repeating: "m", count: 130), "\u{1B}[31m"],
        "pre-alarm": ["10m", "10m,25", "x"], "bogus": ["1"],
    ]

    @Test("the same settings, adjustments and engine as reading each alarm alone, whatever the options")
    func sameAsReadingEachAlone() {
        var rng = SplitMix(state: 0x0005_E771)
        let configs = [ConfigDefaults(),
                       ConfigDefaults(path: "/x/config.toml", entries: [ConfigFile.Entry(key: "volume", value: "70", line: 1),
                                                                        ConfigFile.Entry(key: "ring-for", value: "5m", line: 2)])]
        for config in configs {
            var reader = StoredSettingsReader(defaults: config)
            // Few distinct sets, each met many times: the kept reads are the ones compared.
            let sets: [[String: String]] = (0..<12).map { _ in
                var stored: [String: String] = [:]
                for (key, choices) in Self.values where rng.chance(30) { stored[key] = rng.pick(choices) }
                return stored
            }
            for round in 0..<200 {
                let stored = rng.pick(sets)
                let alone = Result { () throws(WakeFailure) in try RingSettings.tolerating(stored: stored, defaults: config) }
                let once = Result { () throws(WakeFailure) in try reader.read(stored) }
                switch (alone, once) {
                case (.success(let a), .success(let b)):
                    #expect(a.settings.values == b.settings.values && a.settings.checked == b.settings.checked, "round \(round)")
                    #expect(a.adjustments == b.adjustments && a.settings.engine(standing: true) == b.engine, "round \(round)")
                    let alarm = StandingAlarm(name: "a", hour: 6, minute: 0, second: 0, days: 1, date: nil, options: stored,
                                              created: Instant(nanoseconds: 0))
                    #expect(reader.lateLimit(of: alarm) == RingSettings.lateLimit(of: alarm, config: config), "round \(round)")
                case (.failure(let a), .failure(let b)):
                    #expect(a.message == b.message, "round \(round)")
                default:
                    Issue.record("round \(round): \(alone) but \(once)")
                }
            }
        }
    }
}
