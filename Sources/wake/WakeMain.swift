import WakeCore
import WakeSystem

/// From checked options to an armed alarm: every check that can fail happens here, before the wait.
enum WakeMain {
    static func run(_ command: WakeCommand) -> Int32 {
        let console = Console(quiet: command.quiet)
        if command.listDevices {
            for d in PCM.listDevices() {
                console.result(d.name)
                if !d.description.isEmpty { console.result("    " + d.description) }
            }
            return ExitStatus.ok
        }
        do {
            let options = try AlarmOptions(command)
            return try arm(options, console: console)
        } catch {
            console.error(error.message)
            return error.status
        }
    }

    static func arm(_ options: AlarmOptions, console: Console) throws(ArmError) -> Int32 {
        let (zone, zoneWarning) = ZoneLoader.local()
        if let zoneWarning { console.error("warning: " + zoneWarning) }

        let now = SystemClock.now()
        let deadline: Deadline
        do {
            deadline = try Schedule.resolve(options.spec, token: options.whenText, now: now.realtime, zone: zone)
        } catch {
            throw ArmError(message: error.description, status: ExitStatus.usage)
        }

        // The sound file: opened and decoded end to end now, and held open until the end.
        let sound: SoundFile
        do {
            if let path = options.soundPath { sound = try SoundFile(path: path) } else { sound = try DefaultSound.open() }
        } catch {
            throw ArmError(message: error.description + "; choose a sound file with --sound", status: ExitStatus.noInput)
        }

        // The device: opened with the file's format and closed again; never held while waiting.
        let check: PCM
        do {
            check = try Ringer.check(device: options.device, sound: sound)
        } catch {
            throw ArmError(message: "cannot ring on device '\(options.device.printable)': \(error.message) (\(error.call)); see 'wake --list-devices'",
                           status: ExitStatus.unavailable)
        }
        let deviceFormat = "\(check.format), \(check.channels) ch, \(check.rate) Hz\(check.isClockless ? ", no clock: paced by wake" : "")"
        check.close()

        // Checked before anything is created: a refused alarm leaves nothing behind.
        let rtcs = options.wakeSystem ? WakeAlarmCapability.realTimeClocks() : []
        if options.wakeSystem {
            guard WakeAlarmCapability.hasCapability else {
                throw ArmError(message: "--wake-system needs the CAP_WAKE_ALARM capability, which this process lacks; "
                    + "log in on a seat under systemd 254 or newer, run wake from a systemd user timer (systemd-run --user), "
                    + "or grant it with 'sudo setcap cap_wake_alarm+ep \(CommandLine.arguments[0])'", status: ExitStatus.noPermission)
            }
            guard !rtcs.isEmpty else {
                throw ArmError(message: "--wake-system: this machine has no real-time clock (nothing under /sys/class/rtc), "
                    + "so no timer can wake it from suspend; leave the option out and keep it awake (--inhibit require)",
                    status: ExitStatus.unavailable)
            }
        }

        let log: EventLog?
        do {
            if let path = options.eventsPath { log = try EventLog(path: path, zone: zone) } else { log = nil }
        } catch {
            throw ArmError(message: "cannot write the event log '\(options.eventsPath!.printable)': \(error.errno); give a writable path or '-'",
                           status: ExitStatus.cantCreate)
        }

        if options.dryRun {
            let wait = deadline.instant - now.realtime
            console.result("wake time: \(Formatting.iso8601(deadline.instant, zone: zone))")
            console.result("zone: \(zone.name) (\(zone.localType(atUTC: deadline.instant.seconds).abbreviation))")
            console.result("clock: \(deadline.clock.rawValue)")
            console.result("wait: \(max(0, wait.secondsRoundedUp)) s (\(Formatting.span(wait)))")
            console.result("sound: \(sound.path) (\(sound.formatName), \(sound.channels) ch, \(sound.sampleRate) Hz, \(Formatting.seconds(sound.duration)))")
            console.result("device: \(options.device) (\(deviceFormat)): ok")
            console.result("inhibit: \(options.inhibit.rawValue)")
            if options.wakeSystem { console.result("wake system: yes, by \(rtcs.joined(separator: ", "))") }
            return ExitStatus.ok
        }

        let inhibitor = try takeInhibitor(options, why: "alarm at \(Formatting.clockTime(deadline.instant, zone: zone))")
        do {
            let runner = try AlarmRunner(options: options, deadline: deadline, zone: zone, console: console, log: log,
                                         sound: sound, inhibitor: inhibitor, now: now)
            return runner.run(now: SystemClock.now())
        } catch {
            throw ArmError(message: "cannot set up the alarm: \(error)", status: ExitStatus.unavailable)
        }
    }

    /// The "never sleep" lock. Without it the alarm still works, but a suspend delays it: say so.
    static func takeInhibitor(_ options: AlarmOptions, why: String) throws(ArmError) -> InhibitorState {
        if options.inhibit == .off { return .off }
        do {
            let inhibitor = try SleepInhibitor()
            try inhibitor.inhibit(what: InhibitorState.what, who: "wake", why: why, mode: "block")
            try? inhibitor.watchSleep()
            return .held(inhibitor)
        } catch {
            if options.inhibit == .require {
                throw ArmError(message: "cannot keep the machine awake: \(error); is logind running? use --inhibit auto to ring anyway",
                               status: ExitStatus.unavailable)
            }
            return .failed(error.description)
        }
    }
}
