import Testing
import WakeCore

@Suite("--light: the words, the sunrise's curve and the save file")
struct LightPlanTests {
    @Test("the words --light takes, and the plan each means", arguments: [
        ("off", nil), ("flash", LightPlan(flash: true)), ("sunrise", LightPlan(sunrise: .seconds(1200))),
        ("sunrise:5m", LightPlan(sunrise: .seconds(300))), ("sunrise:1m,flash", LightPlan(sunrise: .seconds(60), flash: true)),
        ("flash,sunrise:2h", LightPlan(sunrise: .seconds(7200), flash: true)),
    ] as [(String, LightPlan?)])
    func words(text: String, plan: LightPlan?) throws {
        #expect(try LightPlan.parse(text).get() == plan)
        if let plan { #expect(try LightPlan.parse(plan.text).get() == plan) }
    }

    @Test("what it refuses, each with the way to say it", arguments: [
        ("", "invalid light ''"), ("dawn", "invalid light 'dawn'; use sunrise, sunrise:SPAN"), ("sunrise:", "needs a span"),
        ("sunrise:30s", "shorter than a minute; give 1m or more"), ("sunrise:3h", "longer than 2h; give 2h or less"),
        ("flash,flash", "'flash' is given twice"), ("sunrise:x", "sunrise: "), ("flash:2", "invalid light 'flash:2'"),
        ("off,flash", "invalid light 'off'"),
    ])
    func refused(text: String, said: String) {
        guard case .failure(let p) = LightPlan.parse(text) else { Issue.record("\(text) accepted"); return }
        #expect(p.reason.contains(said), "\(text): \(p.reason)")
        guard case .failure(let q) = AlarmOption.light.parse(text) else { Issue.record("\(text) accepted by the option"); return }
        #expect(q.message.hasPrefix("--light: "), "\(q.message)")
    }

    @Test("the sunrise's share: none before it, 0 at its start, half way at its middle, 1 at and after the ring")
    func share() {
        let plan = LightPlan(sunrise: .seconds(1200))
        #expect(plan.sunriseShare(remaining: .seconds(1201)) == nil)
        #expect(plan.sunriseShare(remaining: .seconds(1200)) == 0)
        #expect(plan.sunriseShare(remaining: .seconds(600)) == 0.5)
        #expect(plan.sunriseShare(remaining: .zero) == 1 && plan.sunriseShare(remaining: .seconds(-5)) == 1)
        #expect(LightPlan(flash: true).sunriseShare(remaining: .zero) == nil)
        #expect(plan.sunriseStep == .seconds(6) && LightPlan(sunrise: .seconds(60)).sunriseStep == .seconds(1))
    }

    @Test("levels: from the lowest lit to the highest, squared, never 0 on a range that has more")
    func levels() {
        #expect(LightPlan.lowest(highest: 19393) == 193 && LightPlan.lowest(highest: 7) == 1 && LightPlan.lowest(highest: 1) == 1)
        #expect(LightPlan.level(share: 0, lowest: 1, highest: 255) == 1)
        #expect(LightPlan.level(share: 1, lowest: 1, highest: 255) == 255)
        #expect(LightPlan.level(share: 0.5, lowest: 1, highest: 255) == 1 + Int((254.0 * 0.25).rounded()))
        #expect(LightPlan.level(share: 7, lowest: 1, highest: 255) == 255 && LightPlan.level(share: -1, lowest: 1, highest: 255) == 1)
        let ramp = (0...100).map { LightPlan.level(share: Double($0) / 100, lowest: 10, highest: 1000) }
        #expect(ramp == ramp.sorted())
    }

    @Test("the save file: written, read back; anything else refused with its line")
    func saveFile() throws {
        let owner = MixerSaveFile.Owner(pid: 4242, startTicks: 99, bootID: "b00t")
        let file = LightSaveFile(owner: owner, device: "intel_backlight", saved: 4800, highest: 19393)
        #expect(try LightSaveFile.parse(file.serialize()) == file)
        let bad = [
            "owner\t4242\t99\tb00t\n": "no backlight line",
            "backlight\tx\t1\t2\n": "no owner line",
            "owner\t4242\t99\tb00t\nbacklight\tx\t30\t20\n": "line 2: the saved level '30' is not within 0 to '20'",
            "owner\t4242\t99\tb00t\nbacklight\t../x\t1\t20\n": "line 2: backlight takes",
            "owner\t4242\t99\tb00t\nbacklight\tx\t1\t20\nbacklight\ty\t1\t20\n": "line 3: a second backlight line",
            "owner\t4242\t99\tb00t\nmixer\tx\n": "line 2: unknown line 'mixer'",
        ]
        for (text, said) in bad {
            #expect(throws: MixerSaveFile.ParseError.self) { try LightSaveFile.parse(text) }
            do { _ = try LightSaveFile.parse(text) } catch { #expect(error.description.contains(said), "\(error)") }
        }
    }
}
