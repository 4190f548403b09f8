import Glibc
import WakeCore
import WakeSystem

enum FileOutput {
    static func stderr(_ s: String) {
        var b = Array(s.utf8)
        _ = write(STDERR_FILENO, &b, b.count)
    }
}

/// From checked options to an armed alarm: every check that can fail happens here, before the wait.
enum WakeMain {
    static func run(_ command: WakeCommand, arguments: [String]) -> Int32 {
        let console = Console(quiet: command.quiet)
        if command.listDevices {
            for d in PCM.listDevices() {
                console.result(d.name)
                if !d.description.isEmpty { console.result("    " + d.description) }
            }
            return ExitStatus.ok
        }
        do {
            try AlarmOptions.checkRepeats(arguments)
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
            throw ArmError(message: error.description + "; choose another file with --sound", status: ExitStatus.noInput)
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
            console.result("sound: \(sound.path) (\(sound.formatName), \(sound.channels) ch, \(sound.sampleRate) Hz, \(Formatting.span(sound.duration)))")
            console.result("device: \(options.device) (\(deviceFormat)): ok")
            return ExitStatus.ok
        }

        do {
            let runner = try AlarmRunner(options: options, deadline: deadline, zone: zone, console: console, log: log,
                                         sound: sound, now: now)
            return runner.run(now: SystemClock.now())
        } catch {
            throw ArmError(message: "cannot set up the alarm: \(error)", status: ExitStatus.unavailable)
        }
    }
}
