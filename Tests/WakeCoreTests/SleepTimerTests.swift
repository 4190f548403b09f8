import Testing
@testable import WakeCore

/// Issue 56, the sleep timer's rules: its span, its fades, and when `--then` may put the machine
/// to sleep or power it off (the sound itself on a file PCM: WakeTests/SleepTimerEndToEndTests).
@Suite("SleepTimer")
struct SleepTimerTests {
    @Test("SPAN: a second to 12 hours; anything else one line with what to give")
    func span() {
        #expect(SleepTimer.span("30m") == .success(.seconds(1800)))
        #expect(SleepTimer.span("1h30m") == .success(.seconds(5400)))
        #expect(SleepTimer.span("0") == .failure(.init("'0' is no time to play; give a span of a second or more, as 30m")))
        #expect(SleepTimer.span("13h") == .failure(.init("'13h' is longer than 12h; give 12h or less")))
        if case .failure(let p) = SleepTimer.span("soon") { #expect(!p.message.isEmpty) } else { Issue.record("'soon' taken") }
        #expect(SleepTimer.after("suspend") == .success(.suspend))
        #expect(SleepTimer.after("hibernate") == .failure(.init("--then: invalid choice 'hibernate'; use stay, suspend or off")))
    }

    @Test("the last minute fades away (half of a span under two minutes); 5 s to rise, a quarter of a shorter span")
    func fades() {
        let night = SleepTimer(span: .seconds(1800))
        #expect(night.fade == .seconds(60) && night.fadeOut == FadeOut(after: .seconds(1740), over: .seconds(60)))
        #expect(night.fadeIn == .seconds(5))
        let short = SleepTimer(span: .seconds(8))
        #expect(short.fade == .seconds(4) && short.fadeIn == .seconds(2))
    }

    @Test("the fade: untouched before it, even in loudness through it (-20 dB half-way), silent after")
    func fadeOutFactor() {
        let f = FadeOut(after: .seconds(10), over: .seconds(10))
        #expect(f.factor(atFrame: 0, rate: 100) == 1 && f.factor(atFrame: 999, rate: 100) == 1)
        #expect(abs(f.factor(atFrame: 1500, rate: 100) - 0.1) < 1e-9)
        #expect(f.factor(atFrame: 1999, rate: 100) < 0.011 && f.factor(atFrame: 2000, rate: 100) == 0)
        var samples: [Int16] = [1000, -1000, 1000, -1000]
        samples.withUnsafeMutableBufferPointer { f.apply(to: $0.baseAddress!, frames: 2, channels: 2, firstIndex: 2000, rate: 100) }
        #expect(samples == [0, 0, 0, 0])
    }

    @Test("--then suspend only when the RTC wakes the machine for the next alarm, or none is set; off only with none")
    func refusal() {
        let rtc = SleepTimer.NextAlarm(title: "06:30 (work)", wakesMachine: true)
        let none = SleepTimer.NextAlarm(title: "06:30 (work)", wakesMachine: false)
        #expect(SleepTimer.refusal(.suspend, next: nil) == nil && SleepTimer.refusal(.off, next: nil) == nil)
        #expect(SleepTimer.refusal(.suspend, next: rtc) == nil)
        #expect(SleepTimer.refusal(.suspend, next: none)
            == "no RTC wake-up for the next alarm: a suspend would silence 06:30 (work); staying awake")
        #expect(SleepTimer.refusal(.off, next: rtc)
            == "a machine that is off rings nothing: powering off would silence 06:30 (work); staying on")
        #expect(SleepTimer.refusal(.stay, next: none) == nil)
    }
}
