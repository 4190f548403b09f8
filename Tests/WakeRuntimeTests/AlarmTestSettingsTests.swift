import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
import WakeSystem

/// `wake test` rings with exactly the alarm's settings: every ring option of the table reaches
/// its engine, its ring and its report, with no list of options in `AlarmTest`. A row added to
/// `AlarmOption.all` is checked here by its kind alone.
@Suite("wake test: every ring option of the table reaches the test")
struct AlarmTestSettingsTests {
    /// A value of `option`'s kind other than its default, each consistent with the others (a
    /// fade no longer than the ring, a long snooze as long as the snooze).
    static func value(_ option: AlarmOption) -> String {
        switch option.kind {
        case .file, .files: return "/tmp/wake-test-sound.wav"
        case .device: return "null"
        case .sink: return "headphones"
        case .percent: return "37"
        case .duration: return "7m"
        case .choice(let words): return words.last(where: { $0 != option.defaultText }) ?? words[0]
        case .message: return "Hi"
        case .count(let range): return String(range.upperBound)
        case .preAlarm: return "5m,30"
        case .hooks: return "ringing=true"
        case .days(let range): return "\(range.upperBound)d"
        case .date: return "2026-12-07"
        case .name: return "school"
        case .light: return "sunrise:5m,flash"
        }
    }

    static var values: [String: String] {
        Dictionary(uniqueKeysWithValues: AlarmOption.all(.ring).map { ($0.name, value($0)) })
    }

    static func plan(full: Bool) throws -> AlarmTest.Plan {
        let request = AlarmTest.Request(name: nil, commandLine: values, length: "2s", full: full, json: false, config: ConfigDefaults())
        return try AlarmTest.plan(request, store: nil)
    }

    @Test("every ring option given is in the plan's settings and in the report's settings line")
    func everyOptionReported() throws {
        let plan = try Self.plan(full: false)
        let line = AlarmTestReport.settingsText(plan.ring.lines)
        for option in AlarmOption.all(.ring) {
            let given = Self.value(option)
            #expect(plan.ring.values[option.name] == given, "\(option.flag) did not reach wake test's settings")
            guard option != .message else { continue }  // the report's own message line says it
            guard case .success(let parsed) = option.parse(given) else { Issue.record("\(option.flag) \(given)"); continue }
            #expect(line.contains("\(option.label) \(option.describe(parsed))"), "\(option.flag) is not in the report: \(line)")
        }
        #expect(line.contains("snooze volume 37 % (at the alarm, not in the test)"), "\(line)")
    }

    @Test("the engine is the alarm's whole, rung now for --for, without a pre-alarm")
    func wholeEngine() throws {
        let plan = try Self.plan(full: true)
        var expected = plan.ring.engine
        expected.lateLimit = .zero
        expected.ringFor = .seconds(2)
        expected.preAlarm = nil
        expected.unattended.mode = .stop
        expected.checkUp = .zero
        #expect(plan.engine == expected)
        #expect(plan.engine.snoozeLimit == 99 && plan.engine.challenge && plan.engine.snooze == .seconds(420))
    }

    @Test("the ring is the alarm's whole with --full; quiet, only the levels are the test's")
    func wholeRing() throws {
        let tone = try RunnerTests.tone()
        let full = try Self.plan(full: true)
        let alarm = full.ring.request(sound: tone, kind: .user)
        #expect(full.request(sound: tone, kind: .user, speech: nil, entries: []).isSameRing(as: alarm))
        #expect(full.request(sound: tone, kind: .user, speech: nil, entries: []).snoozeVolume == 37)
        let quiet = try Self.plan(full: false).request(sound: tone, kind: .user, speech: nil, entries: [])
        #expect(quiet.volume == AlarmTest.quietGain && quiet.fadeIn == .zero && quiet.leavesUserLevels)
        #expect(quiet.snoozeVolume == AlarmTest.quietGain && quiet.device == alarm.device && quiet.mixer == alarm.mixer)
    }
}
