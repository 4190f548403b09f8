import WakeCore
import WakeEngine
import WakeSystem

extension Doctor {
    /// For each alarm that will ring: its options as the daemon reads them, its sound (decoded
    /// and audible at its volume), its device (opens, and is not a server's dummy output), and
    /// the output behind it (a sound server's default sink and what it remembers of wake's
    /// stream, else the card's mixer) with what the mixer guard will do. The very checks `wake
    /// add` runs, in the daemon's mode; each file decoded and each device opened once.
    ///
    /// `signals` ends a device or mixer check's wait; nil off the loop's thread (the daemon's
    /// bedtime check), where each is bounded by the stall limit alone. `interrupt` ends a decoding.
    static func soundFindings(rows: [StandingAlarmActions.Row], config: ConfigDefaults, signals: SignalChannel?,
                              interrupt: @escaping () -> Int32? = { SignalChannel.pending() }) throws(WakeFailure) -> [DoctorFinding] {
        var out: [DoctorFinding] = []
        var decoded: [String: SoundFile] = [:]
        var builtIn: SoundFile?
        struct Output { var device: String; var format: String; var report: Result<DeviceCheck.Report, WakeFailure> }
        var devices: [String: Output] = [:]
        var server: Result<SoundServerStream.Inspection, SoundServerStream.Failure>?
        // The server's sinks, asked once: for `--sink` and for whether an alarm's sink can vanish.
        var sinkList: Result<[SinkChoice.Listed], SoundServerStream.Failure>?
        func sinks() throws(SoundServerStream.Failure) -> [SinkChoice.Listed] {
            if sinkList == nil { sinkList = Result { () throws(SoundServerStream.Failure) in try SoundServerStream.sinks() } }
            return try sinkList?.get() ?? []
        }
        for row in rows {
            let name = row.alarm.name
            var settings: RingSettings
            do {
                let read = try RingSettings.tolerating(stored: row.alarm.options, defaults: config)
                settings = read.settings
                for a in read.adjustments {
                    out.append(DoctorFinding(.sound, "sound.options", alarms: [name], .warn, a.line(alarm: name),
                                             fix: localized("remove the alarm and add it again with a value 'wake add' takes")))
                }
            } catch {
                out.append(DoctorFinding(.sound, "sound.options", alarms: [name], .fail, error.message,
                                         fix: localized("correct config.toml")))
                continue
            }

            // The sound, by the arm-time check in the daemon's mode: a file that does not decode, or
            // is silent at this volume, rings wake's built-in sound instead.
            let sound = try ArmChecks.sound(settings.soundPath, volume: settings.volume, mode: .daemon(alarm: name),
                                            opened: settings.soundPath.flatMap { decoded[$0] }, interrupt: interrupt,
                                            builtIn: { () throws(SoundFile.OpenError) -> SoundFile in
                                                if let builtIn { return builtIn }
                                                let file = try DefaultSound.open()
                                                builtIn = file
                                                return file
                                            })
            if let path = settings.soundPath, let file = sound.decoded { decoded[path] = file }
            if let warning = sound.warning {
                // It still rings, and is heard: with wake's sound, not the one chosen.
                // The fix for what is wrong: a file gone or unreadable, or one too quiet at the
                // volume, which the alarm's own --volume or config.toml's sets.
                let again = "'wake remove \(name.printable)', then 'wake add ... -s FILE'"
                let fix: String
                if sound.decoded == nil {
                    fix = localized("put the file back, or choose another ({again})", again)
                } else if row.alarm.options[AlarmOption.volume.name] == nil, config.entry(AlarmOption.volume.name) != nil {
                    fix = localized("raise volume in config.toml ({percent} now), or choose a louder file ({again})",
                                    String(settings.volume), again)
                } else {
                    fix = localized("choose a louder file or raise its volume ({again} --volume N)", again)
                }
                out.append(DoctorFinding(.sound, "sound.file", alarms: [name], .warn, String(warning.drop { $0 != ":" }.dropFirst(2)),
                                         fix: localized("{fix}; then '{command}' plays what it will ring", fix,
                                                        "wake test \(name.printable)")))
            } else {
                let what = sound.kind == .builtIn ? localized("wake's built-in sound") : "'\(sound.file.path.printable)'"
                out.append(DoctorFinding(.sound, "sound.file", alarms: [name], .pass,
                                         localized("{sound} decodes ({length}, {rate} Hz) and is audible at volume {percent} %", what,
                                                   Formatting.span(sound.file.duration), String(sound.file.sampleRate),
                                                   String(settings.volume))))
            }

            // `--say on`: the arm-time speech, in the daemon's mode (without espeak-ng it rings unspoken).
            if settings.say {
                let text = SpeechClip.text(message: settings.message, hour: row.alarm.hour, minute: row.alarm.minute)
                let spoken = try ArmChecks.speech(text, mode: .daemon(alarm: name), sounds: [])
                // The daemon runs this check before an alarm (BedtimeCheck): it keeps no voice loaded after.
                Speech.release()
                if let warning = spoken.warning {
                    out.append(DoctorFinding(.sound, "sound.speech", alarms: [name], .warn, String(warning.drop { $0 != ":" }.dropFirst(2)),
                                             fix: localized("{install}, then 'systemctl --user restart wake'", Speech.aptLine)))
                } else if let clip = spoken.speech?.clip {
                    out.append(DoctorFinding(.sound, "sound.speech", alarms: [name], .pass,
                                             localized("espeak-ng speaks \"{text}\" ({length}) between loops",
                                                       TerminalText.escape(clip.text), Formatting.seconds(clip.duration))))
                }
            }

            // `--sink`: found as the daemon's ring finds it (by name or description).
            if settings.sink != nil {
                let placed = try ArmChecks.sink(settings, mode: .daemon(alarm: name), list: sinks)
                settings = placed.settings
                if let warning = placed.warning {
                    let found = String(warning.drop { $0 != ":" }.dropFirst(2))
                    out.append(DoctorFinding(.sound, "sound.sink-choice", alarms: [name], .warn, found,
                                             fix: localized("""
                                                 connect the sink, or choose one the server has ('wake --list-devices' lists them)
                                                 """)))
                }
            }

            // The device, opened with this sound's format and closed again, bounded.
            let format = "\(sound.file.sampleRate)/\(sound.file.channels)/\(sound.file.width)"
            let key = settings.device + "|" + format
            if devices[key] == nil {
                let report: Result<DeviceCheck.Report, WakeFailure>
                do {
                    try ALSAEnvironment.check()
                    report = .success(try DeviceCheck.run(settings.device, sound: sound.file, dryRun: true, signals: signals))
                } catch let failure as WakeFailure {
                    if case .interrupted = failure.kind { throw failure }
                    report = .failure(failure)
                } catch {
                    report = .failure(WakeFailure(.unavailable, "\(error)"))
                }
                devices[key] = Output(device: settings.device, format: format, report: report)
            }
            guard let output = devices[key] else { continue }
            switch output.report {
            case .failure(let failure):
                out.append(DoctorFinding(.sound, "sound.device", alarms: [name], .fail,
                                         localized("{problem}; at ring time wake falls back to other devices, then the terminal bell",
                                                   failure.message),
                                         fix: localized("""
                                             connect the device, or give the alarm another with -D (see 'wake --list-devices')
                                             """)))
                continue
            case .success(let report):
                if let problem = report.problem {
                    out.append(DoctorFinding(.sound, "sound.device", alarms: [name], .fail, problem,
                                             fix: localized("connect or enable an output ('pactl list sinks' shows what the server has)")))
                    continue
                }
                out.append(DoctorFinding(.sound, "sound.device", alarms: [name], .pass,
                                         localized("device '{device}' opens ({summary})", settings.device.printable, report.summary)))
                if report.serverBacked {
                    if server == nil { server = Result { () throws(SoundServerStream.Failure) in try SoundServerStream.inspect() } }
                    if let chosen = settings.sink, chosen != SinkChoice.all {
                        // Asked again for each alarm: a sink of its own (the default's look is shared).
                        let own = Result { () throws(SoundServerStream.Failure) in try SoundServerStream.inspect(sink: chosen) }
                        out += serverFindings(own, alarm: name, policy: settings.mixer, chosen: true)
                    } else if let server {
                        out += serverFindings(server, alarm: name, policy: settings.mixer)
                    }
                    let defaultName = try? server?.get().defaultSink.name
                    if let listed = try? sinks(),
                       let warning = SinkChoice.detachableWarning(chosen: settings.sink, defaultName: defaultName, among: listed) {
                        out.append(DoctorFinding(.sound, "sound.sink-choice", alarms: [name], .warn, warning,
                                                 fix: localized("""
                                                     keep it connected and charged, or ring on a sink that stays \
                                                     (--sink NAME; 'wake --list-devices' lists them)
                                                     """)))
                    }
                } else {
                    out.append(mixerFinding(device: settings.device, policy: settings.mixer, alarm: name, signals: signals))
                }
            }
        }
        return out
    }

    /// The server's default sink and what it remembers of wake's stream, and what the guard does
    /// about each: the stream guard unmutes and raises wake's own stream always (`--mixer off`
    /// too); the mixer guard the sink only with `--mixer auto`.
    /// `chosen`: the sink is the alarm's `--sink`, not the default.
    static func serverFindings(_ inspected: Result<SoundServerStream.Inspection, SoundServerStream.Failure>, alarm: String,
                               policy: MixerPolicy, chosen: Bool = false) -> [DoctorFinding] {
        let i: SoundServerStream.Inspection
        switch inspected {
        case .success(let found): i = found
        case .failure(let failure):
            return [DoctorFinding(.sound, "sound.server", alarms: [alarm], .warn,
                                  localized("the device opened, but the sound server cannot be asked about its sink: {reason}",
                                            failure.description),
                                  fix: localized("check 'pactl info' from the daemon's environment"))]
        }
        var out: [DoctorFinding] = []
        // A noun phrase the sentences below take whole, one for each sink (both take the same grammar).
        let described = i.defaultSink.description.printable, named = i.defaultSink.name.printable
        let sink = chosen ? localized("its sink '{description}' ({name})", described, named)
            : localized("the default sink '{description}' ({name})", described, named)
        let level = i.sinkReading.percent.map { "\($0) %" } ?? localized("no volume")
        let target = chosen ? i.defaultSink.name.printable : "@DEFAULT_SINK@"
        let muted = i.sinkReading.levels.isMuted
        switch policy {
        case .guardFloor(let floor):
            let low = (i.sinkReading.percent ?? 100) < floor
            if muted {
                out.append(DoctorFinding(.sound, "sound.sink", alarms: [alarm], .warn,
                                         low ? localized("""
                                                 {sink} is muted ({level}): the mixer guard unmutes it and raises it to {floor} % while \
                                                 ringing, and puts it back
                                                 """, sink, level, String(floor))
                                             : localized("""
                                                 {sink} is muted ({level}): the mixer guard unmutes it while ringing, and puts it back
                                                 """, sink, level),
                                         fix: localized("""
                                             nothing is needed for the alarm; unmute it ('pactl set-sink-mute {target} 0') if the mute is \
                                             not meant
                                             """, target)))
            } else {
                out.append(DoctorFinding(.sound, "sound.sink", alarms: [alarm], .pass,
                                         low ? localized("""
                                                 {sink} is unmuted at {level}: the mixer guard raises it to {floor} % while ringing
                                                 """, sink, level, String(floor))
                                             : localized("{sink} is unmuted at {level}, at or above --min-volume {floor} %", sink, level,
                                                         String(floor))))
            }
        case .off:
            if muted {
                out.append(DoctorFinding(.sound, "sound.sink", alarms: [alarm], .fail,
                                         localized("{sink} is muted ({level}), and --mixer off leaves it so: the alarm will not be heard",
                                                   sink, level),
                                         fix: localized("unmute it ('pactl set-sink-mute {target} 0'), or let wake guard it (--mixer auto)",
                                                        target)))
            } else {
                let low = (i.sinkReading.percent ?? 100) < Defaults.minVolume
                out.append(DoctorFinding(.sound, "sound.sink", alarms: [alarm], low ? .warn : .pass,
                                         low ? localized("""
                                                 {sink} is unmuted at {level}; --mixer off leaves it as it is: the alarm may be too quiet \
                                                 to wake you
                                                 """, sink, level)
                                             : localized("{sink} is unmuted at {level}; --mixer off leaves it as it is", sink, level),
                                         fix: low ? localized("""
                                             raise it ('pactl set-sink-volume {target} 60%'), or let wake guard it (--mixer auto)
                                             """, target) : nil))
            }
        }
        if let remembered = i.remembered {
            let at = remembered.percent.map { "\($0) %" } ?? localized("its level")
            if remembered.levels.isMuted {
                out.append(DoctorFinding(.sound, "sound.stream", alarms: [alarm], .warn,
                                         localized("""
                                             the server remembers wake's stream muted (stream restore, at {level}): the stream guard \
                                             unmutes it while ringing
                                             """, at),
                                         fix: localized("""
                                             nothing is needed for the alarm; unmute 'wake' in the volume control while 'wake test --full' \
                                             rings, so the server forgets the mute
                                             """)))
            } else {
                let low = (remembered.percent ?? 100) < Defaults.minVolume
                out.append(DoctorFinding(.sound, "sound.stream", alarms: [alarm], .pass,
                                         low ? localized("""
                                                 the server remembers wake's stream unmuted at {level}: the stream guard raises it to \
                                                 {floor} % while ringing
                                                 """, at, String(Defaults.minVolume))
                                             : localized("the server remembers wake's stream unmuted at {level}", at)))
            }
        } else {
            out.append(DoctorFinding(.sound, "sound.stream", alarms: [alarm], .pass,
                                     localized("""
                                         the server lists nothing remembered for wake's stream (it has not rung here yet, or PipeWire's \
                                         wireplumber keeps it): the stream guard unmutes it and raises it to {floor} % while ringing
                                         """, String(Defaults.minVolume))))
        }
        return out
    }

    /// A card's mixer (`hw:`, `plughw:`), as the dry run reads it.
    static func mixerFinding(device: String, policy: MixerPolicy, alarm: String, signals: SignalChannel?) -> DoctorFinding {
        guard let report = try? MixerCheck.run(device: device, policy: policy, signals: signals) else {
            return DoctorFinding(.sound, "sound.mixer", alarms: [alarm], .warn, localized("the mixer could not be read"),
                                 fix: localized("check 'amixer'"))
        }
        let off = policy == .off
        let status: DoctorFinding.Status = report.notable ? (off ? .fail : .warn) : .pass
        let fix = off ? localized("unmute and raise it ('alsamixer'), or let wake guard it (--mixer auto)")
            : localized("nothing is needed for the alarm; 'alsamixer' sets it")
        return DoctorFinding(.sound, "sound.mixer", alarms: [alarm], status, localized("mixer: {report}", report.text),
                             fix: status == .pass ? nil : fix)
    }
}
