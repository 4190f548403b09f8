import Foundation
import Testing
import WakeCore
@testable import WakeRuntime
import WakeSystem
@testable import WakeTestSupport

/// The API's timers in process: AddTimer's arguments and refusals, and a timer's object showing
/// its span and, paused, the span it holds. (A timer the daemon rings: Tests/WakeTests/TimerEndToEndTests.swift.)
@Suite(.serialized) struct BusAPITimerTests {
    @Test("AddTimer(ssa{sv}): a bad span, a key no timer takes and a wrong signature are refused; a paused timer's object says so")
    func addTimerAndProperties() async throws {
        var tea = StandingAlarm(name: "tea", hour: 0, minute: 0, second: 0, days: 0, date: nil, options: [:], created: RunnerTests.evening,
                                timer: StandingTimer(span: .seconds(240), remaining: .seconds(200)))
        tea.at = nil
        try await BusAPITests.withAPI([tea]) { f in
            let (mock, session, api) = (f.mock, f.session, f.api)
            func call(_ args: [String]) async throws -> ProcessResult {
                try await BusAPITests.busctl(mock, session, ["call", BusAPITests.name, BusAPITests.root, BusAPIDescription.manager] + args)
            }
            var r = try await call(["AddTimer", "ssa{sv}", "soon", "tea2", "0"])
            #expect(r.exitCode != 0 && r.stderr.contains("AddTimer: span: invalid duration 'soon'"), "\(r)")
            r = try await call(["AddTimer", "ssa{sv}", "4m", "", "1", "days", "s", "daily"])
            #expect(r.exitCode != 0 && r.stderr.contains("option 'days' is not a timer's"), "\(r)")
            r = try await call(["AddTimer", "sa{sv}", "4m", "0"])
            #expect(r.exitCode != 0 && r.stderr.contains("AddTimer takes (ssa{sv})"), "\(r)")
            #expect(try f.store.load().map(\.name) == ["tea"], "nothing added")
            api.beforePoll()
            let path = BusAPIDescription.path(of: "tea")
            for (property, says) in [("TimerSpan", "t 240000000"), ("TimerHeld", "t 200000000"), ("State", "s \"paused\"")] {
                r = try await BusAPITests.busctl(mock, session, ["get-property", BusAPITests.name, path, BusAPIDescription.alarm, property])
                #expect(r.stdout.contains(says), "\(property): \(r)")
            }
        }
    }
}
