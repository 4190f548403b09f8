import Foundation
import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// `wake test`'s plan (what it rings, from the alarm, the command line and config.toml) and its
/// report (the verdict, the lines, the JSON), in process: no device, no server.
@Suite("wake test: the plan and the report")
struct AlarmTestReportTests {
    static let t0 = Instant(seconds: 1000)

    static func attempt(_ device: String = "file:'/tmp/x',raw", frames: Int64 = 88_200, peak: Double = 0.15, server: Bool = false,
                        from: Instant = t0, to: Instant? = t0 + .seconds(2)) -> OutputMeter.Attempt {
        OutputMeter.Attempt(device: device, sound: .user, frames: frames, rate: 44_100, peak: peak, serverBacked: server,
                            firstFrame: frames > 0 ? from : nil, stopRequested: to)
    }

    static func report(_ attempts: [OutputMeter.Attempt] = [attempt()], full: Bool = false, policy: MixerPolicy = .guardFloor(50),
                       stream: AlarmTestReport.Stream? = nil, reading: MixerReading? = nil, bell: Bool = false,
                       ending: AlarmTestReport.Ending = .time, name: String? = "work") -> AlarmTestReport {
        AlarmTestReport(subject: name.map { "alarm '\($0.printable)'" } ?? "the ring options given", name: name, full: full,
                        length: .seconds(2), gain: full ? 80 : 15, fadeIn: full ? .seconds(30) : .zero, alarmVolume: 80,
                        alarmFadeIn: .seconds(30), requestedDevice: attempts.first?.device ?? "default", soundPath: "/tmp/tone.wav",
                        soundKind: .user, message: "Wake up", attempts: attempts,
                        opened: attempts.map { ($0.device, "S16_LE, 2 ch, 44100 Hz, buffer 4410 frames", !$0.serverBacked) },
                        bell: bell, ending: ending, rang: .seconds(2), stream: stream,
                        mixer: .init(policy: policy, leftAlone: !full, found: "none known: left alone", reading: reading),
                        notification: .init(mode: .auto, shown: true, server: "dbusmock 1.0", buttons: true))
    }

    static func state(muted: Bool = false, corked: Bool = false, sinkMuted: Bool = false, sink: String = "speaker") -> SoundServerWatch.StreamState {
        SoundServerWatch.StreamState(muted: muted, corked: corked, percent: 100, sink: .init(name: sink, description: "Null Output"),
                                     sinkMuted: sinkMuted, sinkPercent: 60)
    }

    static func stream(_ looks: [SoundServerWatch.StreamState?], excused: Bool = true) -> AlarmTestReport.Stream {
        AlarmTestReport.Stream(looks: looks, interval: .milliseconds(250), unreachable: nil, sinkExcused: excused)
    }

    // MARK: the verdict

    @Test("audible sound on a device: reached, and the report says where, how much and how loud")
    func reached() throws {
        let r = Self.report()
        #expect(r.verdict == .reached)
        let lines = r.lines
        #expect(lines.first == "test of alarm 'work', quietly, 2s: SOUND REACHED THE OUTPUT", "\(lines)")
        #expect(lines.contains("device: 'file:'/tmp/x',raw' (S16_LE, 2 ch, 44100 Hz, buffer 4410 frames; no clock: paced by wake)"), "\(lines)")
        #expect(lines.contains("audio: 2.0 s (88200 frames) accepted by the device, peak -16.5 dBFS"), "\(lines)")
        #expect(lines.contains("level: quiet test at 15 % gain without a fade-in; the alarm rings at volume 80 %, fading in over 30s "
                               + "('wake test work --full' plays it so)"), "\(lines)")
        #expect(lines.contains("fallbacks: none") && lines.contains("stream: not on a sound server"), "\(lines)")
        #expect(lines.contains("notification: shown by 'dbusmock 1.0', with Snooze and Stop buttons"), "\(lines)")
        #expect(lines.contains("message: Wake up") && lines.contains("ended: --for 2s ran out"), "\(lines)")
    }

    @Test("nothing audible: no frames (the bell), a peak at or below -60 dBFS, a stream the server kept muted or corked, a muted sink or mixer the guard leaves")
    func nothingAudible() throws {
        func why(_ r: AlarmTestReport) -> String? {
            if case .nothingAudible(let why) = r.verdict { return why }
            return nil
        }
        let bell = Self.report([Self.attempt(frames: 0, peak: 0)], bell: true)
        #expect(why(bell)?.contains("only the terminal bell rang") == true)
        #expect(bell.lines.first?.hasSuffix("NOTHING AUDIBLE REACHED THE OUTPUT: no device accepted any audio; only the terminal bell rang") == true)
        #expect(bell.lines.contains { $0.hasPrefix("device: none took any audio (asked for 'file:'/tmp/x',raw'; tried") }, "\(bell.lines)")

        let quiet = Self.report([Self.attempt(peak: 0.0009)])
        #expect(why(quiet)?.contains("peaked at -60.9 dBFS") == true, "\(String(describing: why(quiet)))")
        #expect(Self.report([Self.attempt(peak: 0.0011)]).verdict == .reached)

        let server = [Self.attempt("default", server: true)]
        let muted = Self.report(server, stream: Self.stream([Self.state(muted: true), Self.state(muted: true)]))
        #expect(why(muted) == "the sound server kept wake's stream muted the whole test")
        #expect(muted.lines.contains { $0.contains("MUTED by the server in 2 of 2 looks, about 0.5 s") }, "\(muted.lines)")
        let corked = Self.report(server, stream: Self.stream([Self.state(corked: true)]))
        #expect(why(corked) == "the sound server kept wake's stream corked (paused) the whole test")
        // Muted part of the time: heard in one look, so reached, and the mute is said.
        let partly = Self.report(server, stream: Self.stream([Self.state(), Self.state(muted: true)]))
        #expect(partly.verdict == .reached)
        #expect(partly.lines.contains { $0.hasPrefix("stream: wake's own on sink 'speaker' (Null Output): MUTED by the server in 1 of 2 looks") })
        #expect(partly.lines.contains { $0.hasPrefix("audio: ") && $0.contains("accepted by the sound server's stream") })

        // A muted sink: the quiet test leaves it, and the guard lifts it at the alarm; with --mixer off nothing does.
        let excused = Self.report(server, stream: Self.stream([Self.state(sinkMuted: true)], excused: true))
        #expect(excused.verdict == .reached)
        #expect(excused.lines.contains { $0.contains("the sink was MUTED in 1 of 1 looks") && $0.contains("the guard lifts it at the alarm") })
        let off = Self.report(server, policy: .off, stream: Self.stream([Self.state(sinkMuted: true)], excused: false))
        #expect(why(off) == "the sink 'speaker' wake's stream plays on was muted the whole test and --mixer off leaves it so")

        // A card's mixer read muted at the start, with --mixer off.
        let master = MixerReading(element: "Master", range: 0...100, levels: MixerLevels(volumes: [40], switches: [false]))
        let card = Self.report([Self.attempt("hw:0")], policy: .off, reading: master)
        #expect(why(card) == "the mixer behind the device is Master 40 %, muted and --mixer off leaves it so")
        #expect(Self.report([Self.attempt("hw:0")], policy: .guardFloor(50), reading: master).verdict == .reached)

        // A server that could not be asked is not held against the sound.
        #expect(Self.report(server, stream: AlarmTestReport.Stream(looks: [], interval: .milliseconds(250), unreachable: "no", sinkExcused: true))
            .verdict == .reached)
    }

    @Test("the looks that count: inside a server device's playing window, without the corked ones at the start")
    func looksWhilePlaying() {
        let t = Self.t0
        func sample(_ s: Duration, _ state: SoundServerWatch.StreamState?) -> SoundServerWatch.Sample { .init(at: t + s, stream: state) }
        let samples = [sample(.milliseconds(-100), Self.state()), sample(.milliseconds(50), Self.state(corked: true)),
                       sample(.milliseconds(300), Self.state()), sample(.milliseconds(550), Self.state(corked: true)),
                       sample(.milliseconds(2100), Self.state(muted: true))]
        let looks = AlarmTestReport.Stream.looks(samples, windows: [(from: t, to: t + .seconds(2))])
        #expect(looks == [Self.state(), Self.state(corked: true)], "the first corked look is the start; the later one counts")
        // Never uncorked: every look counts, so a server that keeps it corked is found.
        let never = AlarmTestReport.Stream.looks([sample(.milliseconds(100), Self.state(corked: true))], windows: [(from: t, to: nil)])
        #expect(never == [Self.state(corked: true)])
    }

    @Test("names and paths are escaped; a fallback and the device it landed on are said")
    func escapesAndFallbacks() {
        var r = Self.report([Self.attempt("bad\u{1b}[31m", frames: 0, peak: 0), Self.attempt("plughw:0")], name: "w\u{7}rk")
        r.requestedDevice = "bad\u{1b}[31m"
        r.fallbacks = [.init(from: "bad\u{1b}[31m", to: "plughw:0", reason: "no such ALSA device")]
        let text = r.lines.joined(separator: "\n")
        #expect(!text.contains("\u{1b}") && !text.contains("\u{7}"), "\(text)")
        #expect(r.lines.contains { $0.hasPrefix("device: 'plughw:0' (") && $0.hasSuffix(", in place of 'bad\\x1b[31m'") }, "\(text)")
        #expect(r.lines.contains("fallbacks: 'bad\\x1b[31m' failed (no such ALSA device), then 'plughw:0'"), "\(text)")
    }

    @Test("the JSON is one object with the verdict, the counters and the parts; silence's peak is null")
    func json() throws {
        let r = Self.report([Self.attempt("default", server: true)], full: true, stream: Self.stream([Self.state(), Self.state(muted: true)]))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.json.text.utf8)) as? [String: Any])
        #expect(object["alarm"] as? String == "work" && object["mode"] as? String == "full" && object["for"] as? String == "2s")
        #expect(object["audible"] as? Bool == true && object["reason"] is NSNull)
        #expect(object["device"] as? String == "default" && object["frames"] as? Int == 88_200)
        #expect(object["seconds"] as? Double == 2.0 && object["peak_dbfs"] as? Double == -16.5)
        #expect(object["gain_percent"] as? Int == 80 && object["fade_in"] as? String == "30s")
        let stream = try #require(object["stream"] as? [String: Any])
        #expect(stream["looks"] as? Int == 2 && stream["muted"] as? Int == 1 && stream["heard"] as? Int == 1 && stream["sink"] as? String == "speaker")
        let notification = try #require(object["notification"] as? [String: Any])
        #expect(notification["shown"] as? Bool == true && notification["buttons"] as? Bool == true)
        #expect(object["ended"] as? String == "time" && (object["attempts"] as? [Any])?.count == 1)

        let silent = Self.report([Self.attempt(frames: 0, peak: 0)], bell: true, ending: .stopped(by: "key 'x'"), name: nil)
        let s = try #require(try JSONSerialization.jsonObject(with: Data(silent.json.text.utf8)) as? [String: Any])
        #expect(s["audible"] as? Bool == false && s["peak_dbfs"] is NSNull && s["device"] is NSNull && s["alarm"] is NSNull)
        #expect(s["ended"] as? String == "stopped" && s["ended_by"] as? String == "key 'x'")
        #expect(((s["attempts"] as? [[String: Any]])?.first?["peak_dbfs"]) is NSNull)
    }

    // MARK: the plan

    @Test("--for: 1s to 5m, default 10s; anything else is a usage error naming the value")
    func length() throws {
        let w = try StandingActionsTests.World()
        func plan(_ length: String?) throws(WakeFailure) -> AlarmTest.Plan {
            try AlarmTest.plan(.init(name: nil, commandLine: [:], length: length, full: false, json: false, config: ConfigDefaults()),
                               store: w.context.store)
        }
        #expect(try plan(nil).length == .seconds(10))
        #expect(try plan("1s").length == .seconds(1) && (try plan("5m").length) == .seconds(300))
        for bad in ["0s", "999ms", "5m1s", "1h", "ten"] {
            #expect(throws: WakeFailure.self) { try plan(bad) }
            do { _ = try plan(bad) } catch {
                #expect(error.kind == .usage && error.message.hasPrefix("--for") && error.message.contains(bad), "\(error.message)")
            }
        }
    }

    @Test("a standing alarm: its stored options over config.toml, the command line's over them; quiet is 15 % without a fade")
    func standingAlarm() throws {
        let w = try StandingActionsTests.World()
        #expect(try w.add(["06:30"], days: "weekdays", name: "work", ["device": "null", "volume": "80", "fade-in": "30s", "message": "Tea"]) == .done)
        let config = ConfigDefaults(path: "/x/config.toml", entries: [ConfigFile.Entry(key: "snooze", value: "5m", line: 1)])
        func plan(_ commandLine: [String: String], full: Bool = false) throws(WakeFailure) -> AlarmTest.Plan {
            try AlarmTest.plan(.init(name: "work", commandLine: commandLine, length: "2s", full: full, json: false, config: config),
                               store: w.context.store)
        }
        let quiet = try plan([:])
        #expect(quiet.ring.device == "null" && quiet.ring.volume == 80 && quiet.ring.message == "Tea" && quiet.ring.engine.snooze == .seconds(300))
        #expect(quiet.gain == 15 && quiet.fadeIn == .zero && quiet.engine.ringFor == .seconds(2) && quiet.engine.lateLimit == .zero)
        let full = try plan([:], full: true)
        #expect(full.gain == 80 && full.fadeIn == .seconds(30))
        let overridden = try plan(["device": "file:'/tmp/x',raw", "volume": "10"])
        #expect(overridden.ring.device == "file:'/tmp/x',raw" && overridden.gain == 10, "never louder than the alarm itself")
        #expect(throws: WakeFailure.self) { try plan(["volume": "loud"]) }
        do { _ = try AlarmTest.plan(.init(name: "nobody", commandLine: [:], length: nil, full: false, json: false, config: config),
                                    store: w.context.store)
            Issue.record("an unknown alarm was tested")
        } catch {
            #expect(error.kind == .usage && error.message == "no standing alarm named 'nobody'; see 'wake list'")
        }
    }

    @Test("""
        a sound given on wake test's command line is checked as wake now -s checks it (refused, 66); \
        only the stored one as the daemon loads it
        """)
    func soundGivenIsRefused() throws {
        let w = try StandingActionsTests.World()
        #expect(try w.add(["06:30"], days: "weekdays", name: "work", ["device": "null"]) == .done)
        func plan(_ name: String?, _ commandLine: [String: String]) throws(WakeFailure) -> AlarmTest.Plan {
            try AlarmTest.plan(.init(name: name, commandLine: commandLine, length: "1s", full: false, json: false,
                                     config: ConfigDefaults()),
                               store: w.context.store)
        }
        #expect(try plan("work", [:]).soundMode == .daemon(alarm: "work"),
                "the stored sound: a file gone rings the built-in, as at the alarm")
        #expect(try plan("work", ["volume": "40"]).soundMode == .daemon(alarm: "work"))
        for given in ["/dev/zero", "/nonexistent/wake-test.wav"] {
            for name in ["work", nil] {
                let p = try plan(name, ["sound": given])
                #expect(p.soundMode == .oneOff)
                do {
                    _ = try ArmChecks.sound(p.ring.soundPath, volume: p.ring.volume, mode: p.soundMode, interrupt: { nil },
                                            builtIn: RunnerTests.tone)
                    Issue.record("\(given) was taken")
                } catch {
                    #expect(error.kind == .soundUnusable && error.message.contains(given), "\(error.message)")
                }
            }
        }
    }

    @Test("the one-off form: the options given over config.toml, checked as wake add checks them")
    func oneOffForm() throws {
        let w = try StandingActionsTests.World()
        let config = ConfigDefaults(path: "/x/config.toml", entries: [ConfigFile.Entry(key: "volume", value: "60", line: 1),
                                                                     ConfigFile.Entry(key: "notify", value: "off", line: 2)])
        let plan = try AlarmTest.plan(.init(name: nil, commandLine: ["device": "null"], length: nil, full: false, json: false, config: config),
                                      store: w.context.store)
        #expect(plan.ring.device == "null" && plan.ring.volume == 60 && plan.notify == .off && plan.subject == "the ring options given")
        #expect(throws: WakeFailure.self) {
            try AlarmTest.plan(.init(name: nil, commandLine: ["fade-in": "20m"], length: nil, full: false, json: false, config: config),
                               store: w.context.store)
        }
    }
}
