import WakeCore
import WakeEngine
import WakeSystem

/// What `wake test` found, judged and said: the verdict (did audible sound reach the output?),
/// the report's lines, and the same as one JSON object. Built by `AlarmTest` from the checks,
/// the ring's events (`TestRecorder`), the output's own counters (`OutputMeter`) and the watch on
/// the sound server; a value, so the wording and the verdict are tested without a device.
struct AlarmTestReport {
    /// Whether audible sound reached the output, and if not, why.
    enum Verdict: Equatable {
        case reached
        case nothingAudible(String)
    }

    /// How the test's ring ended.
    enum Ending: Equatable {
        /// `--for` ran out.
        case time
        /// A key, a signal, `wake stop` or the notification's Stop button.
        case stopped(by: String)
        /// A snooze, which ends a test.
        case snoozed
        /// No sound could be made for the whole test.
        case failed(String)
        /// A signal fatal by default, or the event loop failed.
        case interrupted(String)
    }

    /// What a quiet test left alone and what the guard does at the alarm, and what it changed.
    struct Mixer: Equatable {
        var policy: MixerPolicy
        /// A quiet test: the ALSA mixer and the sink are read, never raised.
        var leftAlone: Bool
        /// The arm-time check's words (`MixerCheck`): the levels now and what the guard does at the alarm.
        var found: String
        /// The ALSA mixer's levels at the start, when there is one and it answered.
        var reading: MixerReading?
        var raised: [TestRecorder.MixerChange] = []
        var restored: [String] = []
        var problems: [String] = []
    }

    /// The desktop notification.
    struct Notification: Equatable {
        var mode: AlarmOptions.NotifyMode
        var shown: Bool
        /// Who answered the arm-time question, and whether it shows buttons.
        var server: String?
        var buttons: Bool?
        /// Why there was none.
        var why: String?
    }

    /// wake's stream on the sound server while it played, from the watch's looks.
    struct Stream: Equatable {
        /// Looks taken while a server's device played (the stream's start, when the plugin has
        /// not yet uncorked it, left out).
        var looks: [SoundServerWatch.StreamState?] = []
        var interval: Duration
        /// Why the server could not be asked, when it could not.
        var unreachable: String?
        /// The sink's mute or level is the guard's to fix at the alarm (a quiet test with the guard on).
        var sinkExcused: Bool

        var listed: [SoundServerWatch.StreamState] { looks.compactMap { $0 } }
        var missing: Int { looks.count - listed.count }
        var muted: Int { listed.filter(\.muted).count }
        var corked: Int { listed.filter(\.corked).count }
        var sinkMuted: Int { listed.filter { $0.sinkMuted || ($0.sinkPercent ?? 100) == 0 }.count }
        /// Looks in which the stream played unmuted and uncorked, on a sink that was heard (or
        /// whose mute the guard lifts at the alarm).
        var heard: Int {
            listed.filter { s in
                !s.muted && !s.corked && (s.percent ?? 100) > 0 && (sinkExcused || (!s.sinkMuted && (s.sinkPercent ?? 100) > 0))
            }.count
        }

        /// The looks taken while playing, from every sample of the watch: those inside a server
        /// device's playing window (first frame to the stop), without the corked ones at the
        /// very start (the ALSA plugin uncorks its stream when its buffer first fills), unless
        /// the stream never played uncorked.
        static func looks(_ samples: [SoundServerWatch.Sample], windows: [(from: Instant, to: Instant?)]) -> [SoundServerWatch.StreamState?] {
            let inside = samples.filter { s in windows.contains { s.at >= $0.from && s.at <= ($0.to ?? s.at) } }
            guard let firstPlaying = inside.firstIndex(where: { $0.stream.map { !$0.corked } ?? false }) else {
                return inside.map(\.stream)
            }
            return inside[firstPlaying...].map(\.stream)
        }
    }

    /// `alarm 'work'` or `the ring options given`.
    var subject: String
    /// The alarm's name, for `wake test NAME --full` in the advice.
    var name: String?
    var full: Bool
    var length: Duration
    /// The test's level, and the alarm's own.
    var gain: Int
    var fadeIn: Duration
    var alarmVolume: Int
    var alarmFadeIn: Duration
    var requestedDevice: String
    /// The sound file, or nil for wake's built-in sound.
    var soundPath: String?
    var soundKind: FallbackChain.Sound
    var message: String?
    var attempts: [OutputMeter.Attempt]
    var opened: [(device: String, format: String, paced: Bool)] = []
    var fallbacks: [TestRecorder.Fallback] = []
    var bell = false
    var silent: String?
    var ending: Ending
    /// How long the ring lasted (its start to its end).
    var rang: Duration?
    /// Nil when no device of a sound server played.
    var stream: Stream?
    var mixer: Mixer
    var notification: Notification
    /// What was said on the way (set aside options, a sound or device that will not do).
    var warnings: [String] = []
    /// The hooks the test ran (with `WAKE_TEST=1`), in the order handed over, and those refused.
    var hooks: [HookDispatcher.Run] = []
    var hookRefusals: [String] = []
    /// The alarm's settings as the test took them, every ring option of the table
    /// (`RingSettings.lines`), with their texts for the JSON (`values`).
    var settings: [(option: AlarmOption, text: String)] = []
    var settingTexts: [String: String] = [:]

    // MARK: the verdict

    /// The attempts that took audio.
    var reached: [OutputMeter.Attempt] { attempts.filter { $0.frames > 0 } }
    var frames: Int64 { reached.reduce(0) { $0 + $1.frames } }
    var seconds: Double { reached.reduce(0) { $0 + $1.seconds } }
    var peak: Double { reached.map(\.peak).max() ?? 0 }
    var peakDBFS: Double { Audibility.dBFS(peak) }

    /// Audible sound reached the output when a device (or a server's stream) accepted frames
    /// whose peak is above the audibility threshold (-60 dBFS, the rule a sound file is held to),
    /// and, on a sound server, the server let at least one look see the stream play unmuted and
    /// uncorked on a sink that is heard; a sink or an ALSA mixer left muted counts as heard only
    /// where the alarm's guard lifts the mute (a quiet test with `--mixer auto`). What the
    /// server cannot be asked about is not held against it.
    var verdict: Verdict {
        guard !reached.isEmpty else {
            if bell { return .nothingAudible("no device accepted any audio; only the terminal bell rang") }
            if let why = silent ?? failedReason { return .nothingAudible("no device accepted any audio: \(why)") }
            return .nothingAudible("no device accepted any audio")
        }
        if peakDBFS <= Audibility.thresholdDBFS {
            return .nothingAudible("the audio written peaked at \(Audibility.format(peakDBFS)) dBFS, at or below "
                                   + "\(Audibility.format(Audibility.thresholdDBFS)) dBFS: silence to a listener")
        }
        if let stream, !stream.looks.isEmpty, stream.heard == 0 {
            return .nothingAudible(streamSilence(stream))
        }
        if let reading = mixer.reading, mixer.policy == .off, reached.allSatisfy({ !$0.serverBacked }),
           reading.levels.isMuted || (reading.percent ?? 100) == 0 {
            return .nothingAudible("the mixer behind the device is \(reading.summary) and --mixer off leaves it so")
        }
        return .reached
    }

    private var failedReason: String? {
        if case .failed(let why) = ending { return why }
        return nil
    }

    /// Why a server's stream that took audio was heard in no look.
    private func streamSilence(_ s: Stream) -> String {
        if s.listed.isEmpty { return "the sound server never listed wake's stream while it played" }
        if s.muted == s.listed.count { return "the sound server kept wake's stream muted the whole test" }
        if s.corked == s.listed.count { return "the sound server kept wake's stream corked (paused) the whole test" }
        if let sink = s.listed.last, s.sinkMuted == s.listed.count {
            return "the sink '\(sink.sink.name.printable)' wake's stream plays on was \(sink.sinkMuted ? "muted" : "at 0 %") the whole test"
                + (mixer.policy == .off ? " and --mixer off leaves it so" : "")
        }
        return "the sound server kept wake's stream muted, corked or on a silent sink in every look"
    }

    // MARK: the lines

    /// The report, one line per thing, `key: value` as the dry run says it.
    var lines: [String] {
        var out: [String] = []
        let how = full ? "at the alarm's own level" : "quietly"
        let head = "test of \(subject), \(how), \(DurationText.format(length))"
        switch verdict {
        case .reached: out.append("\(head): SOUND REACHED THE OUTPUT")
        case .nothingAudible(let why): out.append("\(head): NOTHING AUDIBLE REACHED THE OUTPUT: \(why)")
        }
        out.append("device: " + deviceText)
        out.append("audio: " + audioText)
        out.append("level: " + levelText)
        out.append("fallbacks: " + (fallbacks.isEmpty ? "none" : fallbacks.map { f in
            "'\(f.from.printable)' failed (\(f.reason)), then \(f.to == "bell" ? "the terminal bell" : "'\(f.to.printable)'")"
        }.joined(separator: "; ")))
        out.append("sound: " + (soundPath.map { "\($0.printable)" + (soundKind == .builtIn ? " (not used: wake's built-in sound rang instead)" : "") }
                                 ?? "wake's built-in sound"))
        out.append("stream: " + streamText)
        out.append("mixer guard: " + mixerText)
        out.append("notification: " + notificationText)
        out.append("hooks: " + hooksText)
        out.append("message: " + (message.map { TerminalText.escape($0) } ?? "none"))
        if !settings.isEmpty { out.append("settings: " + Self.settingsText(settings)) }
        out.append("ended: " + endingText)
        return out
    }

    /// Every setting, `label value`, in the table's order. What the test itself does not ring is
    /// said so: it rings now for `--for`, so the alarm's own length, late limit and pre-alarm
    /// wait for the alarm; a snooze ends the test, so the ring after one is the alarm's.
    static func settingsText(_ settings: [(option: AlarmOption, text: String)]) -> String {
        let notRung: Set<AlarmOption> = [.ringFor, .lateLimit, .preAlarm, .preAlarmSound, .snoozeVolume, .unattended, .unattendedRounds,
                                         .escalate, .checkUp, .light]
        return settings.filter { $0.option != .message }.map { s in
            "\(s.option.label) \(s.text)" + (notRung.contains(s.option) ? " (at the alarm, not in the test)" : "")
        }.joined(separator: "; ")
    }

    /// The device that took the audio last (after any fallback), its format, and where it came from.
    var usedDevice: String? { reached.last?.device }

    private var deviceText: String {
        guard !reached.isEmpty else {
            let tried = Array(Set(attempts.map(\.device))).sorted().map { "'\($0.printable)'" }
            return "none took any audio (asked for '\(requestedDevice.printable)'" + (tried.isEmpty ? ")" : "; tried \(tried.joined(separator: ", ")))")
        }
        guard let device = usedDevice else { return "none opened (asked for '\(requestedDevice.printable)')" }
        var text = "'\(device.printable)'"
        if let o = opened.last(where: { $0.device == device }) {
            text += " (\(o.format)" + (o.paced ? "; no clock: paced by wake" : "") + ")"
        }
        if device != requestedDevice { text += ", in place of '\(requestedDevice.printable)'" }
        return text
    }

    private var audioText: String {
        guard !reached.isEmpty else { return bell ? "none: the terminal bell rang instead" : "none" }
        let server = reached.contains { $0.serverBacked }
        let by = server ? "the sound server's stream" : "the device"
        let shown = Duration.milliseconds(Int64((seconds * 1000).rounded()))
        return "\(Formatting.seconds(shown)) (\(frames) frames) accepted by \(by), peak \(Audibility.format(peakDBFS)) dBFS"
    }

    private var levelText: String {
        let alarm = "volume \(alarmVolume) %" + (alarmFadeIn > .zero ? ", fading in over \(DurationText.format(alarmFadeIn))" : "")
        if full { return "the alarm's own: \(alarm)" }
        let advice = name.map { "'wake test \($0.printable) --full'" } ?? "--full"
        return "quiet test at \(gain) % gain without a fade-in; the alarm rings at \(alarm) (\(advice) plays it so)"
    }

    private var streamText: String {
        guard let s = stream else { return "not on a sound server" }
        if s.looks.isEmpty {
            return "not seen: " + (s.unreachable ?? "the sound server was not asked while it played")
        }
        guard let last = s.listed.last else { return "the sound server never listed wake's stream in \(s.looks.count) looks" }
        let sink = "sink '\(last.sink.name.printable)'" + (last.sink.description.isEmpty ? "" : " (\(last.sink.description.printable))")
        var parts: [String] = []
        func span(_ looks: Int) -> String { "\(looks) of \(s.looks.count) looks, about \(Formatting.seconds(s.interval * looks))" }
        if s.muted > 0 { parts.append("MUTED by the server in \(span(s.muted))") }
        if s.corked > 0 { parts.append("CORKED (paused) by the server in \(span(s.corked))") }
        if s.sinkMuted > 0 {
            parts.append("the sink was \(last.sinkMuted ? "MUTED" : "at 0 %") in \(span(s.sinkMuted))"
                         + (s.sinkExcused ? " (left so by this quiet test: the guard lifts it at the alarm)" : ""))
        }
        if s.missing > 0 { parts.append("not listed in \(s.missing) looks") }
        let levels = "stream at \(last.percent.map { "\($0) %" } ?? "?"), sink at \(last.sinkPercent.map { "\($0) %" } ?? "?")"
        if parts.isEmpty { return "wake's own on \(sink), playing, unmuted and uncorked in all \(s.looks.count) looks (\(levels))" }
        return "wake's own on \(sink): " + parts.joined(separator: "; ") + " (\(levels))"
    }

    private var mixerText: String {
        var parts: [String] = []
        if mixer.leftAlone {
            parts.append(mixer.reading == nil && !mixer.found.contains("%")
                ? mixer.found
                : "the output's levels left as they are for this quiet test; at the alarm: \(mixer.found)")
        } else if mixer.raised.isEmpty {
            parts.append(mixer.found)
        }
        for r in mixer.raised {
            let whose = r.mixer == SoundServerStream.streamControl ? " (wake's own stream, as at every ring)" : ""
            parts.append("raised '\(r.mixer.printable)'\(whose) while ringing: \(r.from.summary) -> \(r.to.summary)")
        }
        if !mixer.restored.isEmpty { parts.append("put back after: " + mixer.restored.joined(separator: ", ")) }
        parts += mixer.problems.map { "warning: " + $0 }
        return parts.joined(separator: "; ")
    }

    private var notificationText: String {
        let n = notification
        if n.mode == .off { return "off (notify = \"off\" in config.toml)" }
        let who = n.server.map { " by '\($0.printable)'" } ?? ""
        if n.shown {
            switch n.buttons {
            case true?: return "shown\(who), with Snooze and Stop buttons"
            case false?: return "shown\(who), WITHOUT buttons: the server shows none; stop the alarm with a key, a signal or 'wake stop'"
            case nil: return "shown\(who)"
            }
        }
        return "NOT SHOWN: " + (n.why ?? "no notification server answered") + "; the alarm rings without one"
    }

    /// `50-lamp (ringing, stopped); curl (ringing: exited with status 7)`: each hook once, with its
    /// events in order and how each run that did not succeed went; then what was refused.
    private var hooksText: String {
        var names: [String] = []
        for r in hooks where !names.contains(r.hook) { names.append(r.hook) }
        var parts = names.map { name in
            let events = hooks.filter { $0.hook == name }.map { r in
                r.event + (r.failure.map { ": " + $0 } ?? (r.finished ? "" : ": still running when the test ended"))
            }
            return "\(name.printable) (\(events.joined(separator: ", ")))"
        }
        parts += hookRefusals.map { "refused: " + $0 }
        return parts.isEmpty ? "none ran" : parts.joined(separator: "; ")
    }

    private var endingText: String {
        let after = rang.map { " after \(Formatting.seconds($0))" } ?? ""
        switch ending {
        case .time: return "--for \(DurationText.format(length)) ran out"
        case .stopped(let who): return "stopped by \(who)\(after)"
        case .snoozed: return "snoozed\(after): a snooze ends a test"
        case .failed: return "no sound could be made for the whole test"
        case .interrupted(let why): return why + after
        }
    }

    // MARK: JSON

    /// The report as one JSON object (`wake test --json`).
    var json: JSONValue {
        func q(_ s: String) -> JSONValue { .string(s) }
        func strings(_ list: [String]) -> JSONValue { .array(list.map(q)) }
        /// dBFS to a tenth, as `Audibility.format` writes it; null for silence (-inf).
        func number(_ d: Double) -> JSONValue { d.isFinite ? .fixed(Int64(min(max((d * 10).rounded(), -1e15), 1e15)), places: 1) : .null }
        /// Seconds with three decimals (milliseconds).
        func secs(_ d: Double) -> JSONValue { d.isFinite ? .fixed(Int64(min((max(0, d) * 1000).rounded(), 1e15)), places: 3) : .null }
        let verdictFields: [(String, JSONValue)]
        switch verdict {
        case .reached: verdictFields = [("audible", .bool(true)), ("reason", .null)]
        case .nothingAudible(let why): verdictFields = [("audible", .bool(false)), ("reason", q(why))]
        }
        let endingFields: [(String, JSONValue)]
        switch ending {
        case .time: endingFields = [("ended", q("time")), ("ended_by", .null)]
        case .stopped(let who): endingFields = [("ended", q("stopped")), ("ended_by", q(who))]
        case .snoozed: endingFields = [("ended", q("snoozed")), ("ended_by", .null)]
        case .failed(let why): endingFields = [("ended", q("failed")), ("ended_by", q(why))]
        case .interrupted(let why): endingFields = [("ended", q("interrupted")), ("ended_by", q(why))]
        }
        let attemptsJSON = JSONValue.array(attempts.map { a in
            .object([("device", q(a.device)), ("sound", q(a.sound == .user ? "user" : "built-in")), ("frames", .int(Int64(a.frames))),
                     ("rate", .int(Int64(a.rate))), ("seconds", secs(a.seconds)),
                     ("peak_dbfs", a.frames > 0 ? number(Audibility.dBFS(a.peak)) : .null),
                     ("server", .bool(a.serverBacked))])
        })
        let streamJSON: JSONValue
        if let s = stream {
            let last = s.listed.last
            streamJSON = .object([
                ("looks", .int(Int64(s.looks.count))), ("interval_ms", .int(s.interval.milliseconds)),
                ("listed", .int(Int64(s.listed.count))),
                ("muted", .int(Int64(s.muted))), ("corked", .int(Int64(s.corked))), ("sink_muted", .int(Int64(s.sinkMuted))),
                ("heard", .int(Int64(s.heard))),
                ("sink", .optional(last?.sink.name)), ("stream_percent", .optional(last?.percent)),
                ("sink_percent", .optional(last?.sinkPercent)), ("unreachable", .optional(s.unreachable)),
            ])
        } else {
            streamJSON = .null
        }
        let mixerJSON = JSONValue.object([
            ("guard", q(mixer.policy == .off ? "off" : "auto")), ("floor", .optional(mixer.policy.floor)),
            ("left_alone", .bool(mixer.leftAlone)), ("found", q(mixer.found)),
            ("raised", .array(mixer.raised.map { r in
                .object([("mixer", q(r.mixer)), ("from", q(r.from.summary)), ("to", q(r.to.summary))])
            })),
            ("restored", strings(mixer.restored)), ("problems", strings(mixer.problems)),
        ])
        let n = notification
        let notificationJSON = JSONValue.object([
            ("mode", q(n.mode.rawValue)), ("shown", .bool(n.shown)),
            ("buttons", n.buttons.map { .bool($0) } ?? .null), ("server", .optional(n.server)), ("why", .optional(n.why)),
        ])
        let fields: [(String, JSONValue)] = [("alarm", .optional(name)), ("mode", q(full ? "full" : "quiet")),
                                             ("for", q(DurationText.format(length)))]
            + verdictFields
            + [("device", .optional(usedDevice)), ("requested_device", q(requestedDevice)), ("frames", .int(frames)),
               ("seconds", secs(seconds)), ("peak_dbfs", reached.isEmpty ? .null : number(peakDBFS)),
               ("gain_percent", .int(Int64(gain))), ("fade_in", q(DurationText.format(fadeIn))),
               ("alarm_volume_percent", .int(Int64(alarmVolume))), ("alarm_fade_in", q(DurationText.format(alarmFadeIn))),
               ("attempts", attemptsJSON),
               ("fallbacks", .array(fallbacks.map { .object([("from", q($0.from)), ("to", q($0.to)), ("reason", q($0.reason))]) })),
               ("bell", .bool(bell)), ("sound", .optional(soundPath)),
               ("sound_kind", q(soundKind == .user ? "user" : "built-in")), ("stream", streamJSON), ("mixer", mixerJSON),
               ("notification", notificationJSON), ("message", .optional(message))]
            + endingFields
            + [("rang_seconds", rang.map { secs(Double($0.milliseconds) / 1000) } ?? .null),
               ("warnings", strings(warnings)),
               ("hooks", .array(hooks.map { r in
                   .object([("hook", q(r.hook)), ("on", q(r.event)),
                            ("status", q(r.failure != nil ? "failed" : r.finished ? "succeeded" : "running")),
                            ("reason", .optional(r.failure))])
               })),
               ("hooks_refused", strings(hookRefusals)),
               ("settings", .object(settings.map { ($0.option.name, JSONValue.optional(settingTexts[$0.option.name])) }))]
        return .object(fields)
    }
}
