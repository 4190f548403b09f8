@testable import WakeCore
import Testing

/// Issue 51: a reading days from any change of offset resolves without probing the days around
/// it (`TimeZoneRules.offsets(near:)`'s shortcut). Every reading resolves as the probes alone
/// resolve it, near transitions and far from them, in zones with a footer and without, and in
/// POSIX rules that change often.
@Suite("Zone offset fast path (seeded)")
struct ZoneOffsetFastPathTests {
    /// `TimeZoneRules.instants(for:)` as it was before the shortcut: the offsets the probes find.
    static func probed(_ zone: TimeZoneRules, _ local: LocalDateTime) -> [Instant] {
        let l = local.secondsAsIfUTC
        var offsets = Set<Int>()
        var probe = l.minus(2 * 86_400)
        let last = l.plus(2 * 86_400)
        while true {
            offsets.insert(zone.offset(atUTC: probe))
            if probe >= last { break }
            probe = min(probe.plus(3 * 3600), last)
        }
        return Set(offsets.map { l.minus(Int64($0)) }).filter { $0.plus(Int64(zone.offset(atUTC: $0))) == l }.sorted()
            .map { Instant(seconds: $0) }
    }

    @Test func everyReadingResolvesAsTheProbesResolveIt() throws {
        var zones = [TimeZoneRules.utc]
        for name in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia",
                     "America/Nuuk", "Asia/Kolkata", "Etc/UTC"] {
            if let z = try? zone(name) { zones.append(z) }
        }
        zones.append(try posixZone("CET-1CEST,M3.5.0,M10.5.0/3"))
        zones.append(try posixZone("XST3XDT,J60/0,J62/0"))
        zones.append(try posixZone("IST-5:30"))
        var rng = PropertyRNG(seed: 0x0FF5_E7A5)
        for zone in zones {
            var readings: [Int64] = []
            // Around each transition, within the probes' two days either side, and far from any.
            for t in zone.transitions.suffix(40) {
                for d in [-3 * 86_400, -2 * 86_400 - 1, -2 * 86_400, -7200, -1, 0, 1, 3599, 7200, 2 * 86_400, 2 * 86_400 + 1] {
                    readings.append(t + Int64(d) + Int64(zone.offset(atUTC: t)))
                }
            }
            for _ in 0..<400 { readings.append(Int64(rng.below(4_000_000_000)) - 1_000_000_000) }
            for r in readings {
                let local = LocalDateTime(secondsAsIfUTC: r)
                #expect(zone.instants(for: local) == Self.probed(zone, local), "\(zone.name) \(local)")
                if let first = Self.probed(zone, local).first { #expect(zone.instant(for: local) == first, "\(zone.name) \(local)") }
            }
        }
    }
}
