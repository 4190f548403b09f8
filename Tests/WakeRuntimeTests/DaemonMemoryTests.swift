import Testing
import WakeCore
import WakeEngine
@testable import WakeRuntime
import WakeSystem
@testable import WakeTestSupport

/// What a waiting daemon keeps: one generation of its alarms whatever the number of reloads, one
/// reading of the settings a set of options has, and what it gives back before the wait.
@Suite("A waiting daemon's memory")
struct DaemonMemoryTests {
    typealias Daemon = DaemonControllerTests.Daemon

    static func alarms(_ count: Int, message: String) -> [StandingAlarm] {
        (0..<count).map { k in
            DaemonControllerTests.daily("a\(k)", 6 + k % 3, k % 60,
                                        options: k == 0 ? ["message": message] : k % 2 == 0 ? ["volume": "70"] : [:])
        }
    }

    @Test("twenty reloads, each with a changed alarm, leave the controller holding one generation")
    func oneGeneration() throws {
        let d = try Daemon(alarms: Self.alarms(12, message: "m0"))
        try d.start()
        let first = try #require(d.controller?.heldCounts)
        // 12 alarms with three sets of options: the message, the volume, none.
        #expect(first["armed"] == 12 && first["checked"] == 12 && first["interned"] == 3, "\(first)")
        for reload in 1...20 {
            // A new message each time: a new set of options, which the one before makes unused.
            try d.store.update { $0 = Self.alarms(12, message: "m\(reload)") }
            d.controller?.requestReload()
            d.controller?.applyPending()
            #expect(d.controller?.heldCounts == first, "after reload \(reload)")
        }
        // And an alarm removed is forgotten in every table.
        try d.store.update { $0 = Array(Self.alarms(12, message: "m20").dropFirst()) }
        d.controller?.requestReload()
        d.controller?.applyPending()
        let after = try #require(d.controller?.heldCounts)
        #expect(after["armed"] == 11 && after["checked"] == 11 && after["interned"] == 2, "\(after)")
    }

    @Test("alarms with the same options share one reading, and each says its own adjustment")
    func sharedReading() throws {
        let bad = ["volume": "6O"]
        let d = try Daemon(alarms: [DaemonControllerTests.daily("one", 7, options: bad),
                                    DaemonControllerTests.daily("two", 8, options: bad)])
        try d.start()
        #expect(d.controller?.heldCounts["interned"] == 1)
        #expect(d.controller?.settings(of: "one") == d.controller?.settings(of: "two"))
        for name in ["one", "two"] {
            let said = d.lines.lines.filter { $0.contains("alarm '\(name)'") && $0.contains("volume = \"6O\"") }
            #expect(said.count == 1, "\(d.lines.lines)")
        }
    }
}
