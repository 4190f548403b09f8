import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// `wake doctor`'s checks in process (issue 39): `Doctor.findings` over a store and config file
/// in a temporary directory, "now" fixed, the zone UTC, no daemon. The file and sound checks are
/// what these look at; the rest (daemon, clock, waking, notifications) ask this machine and are
/// the end-to-end tests' business (`DoctorEndToEndTests`). What each finding says is what a
/// user would read.
@Suite("Doctor in-process")
struct DoctorTests {
    struct World {
        let dir: TestDirectory
        let configPath: String
        let context: StandingContext
        let console = Console(quiet: true)
        let signals: SignalChannel

        init() throws {
            dir = try TestDirectory("wake-doctor")
            configPath = dir.path + "/config/wake/config.toml"
            let store = AlarmStore(alarmsFile: dir.path + "/config/wake/alarms.toml", historyFile: dir.path + "/config/wake/history.toml",
                                   lastGoodFile: dir.path + "/state/wake/alarms.last-good.toml")
            let path = configPath
            context = StandingContext(store: store, config: { ConfigDefaults.loadTolerant(path: path) }, now: { StandingActionsTests.now },
                                      zone: .utc)
            signals = try SignalChannel()
        }

        func add(_ name: String, _ options: [String: String] = ["device": "null"]) throws(WakeFailure) {
            let request = StandingAlarmActions.AddRequest(when: ["06:30"], days: "weekdays", name: name, ring: try RingSettings(values: options),
                                                          given: Set(options.keys.map { "--" + $0 }), force: true)
            _ = try StandingAlarmActions.add(request, console: console, signals: signals, in: context)
        }

        /// Writes a file of the config directory as a hand edit would (0600 in a 0700 directory).
        func write(_ name: String, _ text: String) throws {
            let d = dir.path + "/config/wake"
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            _ = try TestDirectory.writeFile(d + "/" + name, text)
        }

        func findings(_ names: [String] = []) throws(WakeFailure) -> [DoctorFinding] {
            try Doctor.findings(names: names, context: Doctor.Context(standing: context, environment: .shell, signals: signals,
                                                                      hooksFolder: dir.path + "/config/wake/hooks.d"))
        }
    }

    static func one(_ findings: [DoctorFinding], _ check: String, alarm: String? = nil) -> DoctorFinding? {
        let matching = findings.filter { f in f.check == check && (alarm.map { f.alarms == [$0] } ?? true) }
        return matching.count == 1 ? matching[0] : nil
    }

    static func said(_ findings: [DoctorFinding]) -> String { DoctorReport(findings).lines().joined(separator: "\n") }

    @Test("well-formed files pass: config.toml, alarms.toml, history.toml, and the directories are writable")
    func healthyFiles() throws {
        let w = try World()
        try w.add("work")
        try w.write("config.toml", "volume = 80\n")
        let f = try w.findings()
        for check in ["files.config", "files.alarms", "files.history", "files.alarms-directory", "files.state-directory"] {
            #expect(Self.one(f, check)?.status == .pass, "\(check):\n\(Self.said(f))")
        }
        #expect(Self.one(f, "files.config")?.found == "config.toml is well formed (1 setting)", "\(Self.said(f))")
        #expect(Self.one(f, "files.alarms")?.found == "alarms.toml is well formed (1 alarm)", "\(Self.said(f))")
        #expect(Self.one(f, "files.state-directory")?.found.contains("does not exist yet and can be made") == true, "\(Self.said(f))")
        #expect(Self.one(f, "time.next", alarm: "work")?.found.hasPrefix("next 06:30 UTC tomorrow; 06:30 UTC Wed 25 Nov; 06:30 UTC Thu 26 Nov") == true,
                "\(Self.said(f))")
    }

    @Test("the doctor changes nothing: no directory made, no file written (not even the daemon's last good copy of the alarms)")
    func changesNothing() throws {
        let w = try World()
        try w.add("work")
        func files() -> [String] {
            (FileManager.default.enumerator(atPath: w.dir.path)?.allObjects as? [String] ?? []).sorted()
        }
        let before = files()
        let f = try w.findings()
        #expect(files() == before, "\(Self.said(f))")
        let again = try w.findings()
        #expect(Self.one(again, "files.state-directory")?.found.contains("does not exist yet") == true, "\(Self.said(again))")
    }

    @Test("a config.toml typo: files.config FAIL naming the file, the line and the key, with its fix; the rest is still checked")
    func configTypo() throws {
        let w = try World()
        try w.add("work")
        try w.write("config.toml", "volume = 80\nvolumme = 70\n")
        let f = try w.findings()
        let config = try #require(Self.one(f, "files.config"), "\(Self.said(f))")
        #expect(config.status == .fail)
        #expect(config.found.contains("'\(w.configPath)'") && config.found.contains("line 2") && config.found.contains("volumme"), "\(config.found)")
        #expect(config.fix?.contains("correct that line") == true, "\(config)")
        #expect(DoctorReport(f).worst == .fail)
        #expect(Self.one(f, "sound.file", alarm: "work")?.status == .pass, "the daemon rings on, with the line set aside:\n\(Self.said(f))")
    }

    @Test("a bad line in history.toml: files.history FAIL naming the file and the line, with its fix; the ring times are the daemon's, which reads the other lines")
    func historyBadLine() throws {
        let w = try World()
        try w.add("work")
        // Tuesday's occurrence skipped, then a line the daemon sets aside.
        try w.write("history.toml", "[work]\nskip = \"2026-11-24T06:30:00Z\"\nmissed = \"not a date\"\n")
        let f = try w.findings()
        let history = try #require(Self.one(f, "files.history"), "\(Self.said(f))")
        #expect(history.status == .fail, "\(history)")
        #expect(history.found.contains("history.toml") && history.found.contains("line 3"), "\(history.found)")
        #expect(history.fix?.contains("move the file away") == true, "\(history)")
        let next = try #require(Self.one(f, "time.next", alarm: "work"), "\(Self.said(f))")
        #expect(next.status == .pass && next.found.hasPrefix("next 06:30 UTC Wed 25 Nov;"), "the skip still holds for the daemon: \(next.found)")
    }

    @Test("a broken alarms.toml: files.alarms FAIL with its line; an unknown NAME is a usage error")
    func alarmsAndNames() throws {
        let w = try World()
        try w.add("work")
        let f = try w.findings(["work"])
        #expect(f.allSatisfy { $0.alarms.isEmpty || $0.alarms == ["work"] }, "\(Self.said(f))")
        do {
            _ = try w.findings(["work", "gym"])
            Issue.record("an unknown name was checked")
        } catch {
            #expect(error.kind == .usage && error.message.contains("no standing alarm named 'gym'"), "\(error.message)")
        }
        try w.write("alarms.toml", "[work]\ntime = \"06:30\"\ndays = [\"mon\"]\ncolour = \"red\"\n")
        let broken = try w.findings()
        let alarms = try #require(Self.one(broken, "files.alarms"), "\(Self.said(broken))")
        #expect(alarms.status == .fail && alarms.found.contains("alarms.toml") && alarms.found.contains("line"), "\(alarms)")
    }

    @Test("time.zone: TZ naming the machine's zone by another name agrees; another zone in TZ is a WARN naming both, with the fix")
    func zoneAgreement() throws {
        let now = StandingActionsTests.now
        let utcByName = try #require(ZoneLoader.zone(named: "UTC"))
        let etcUTC = try #require(ZoneLoader.zone(named: "Etc/UTC"))
        let berlin = try #require(ZoneLoader.zone(named: "Europe/Berlin"))
        let same = Doctor.zoneFinding(utcByName, now: now, pinned: true, machine: (etcUTC, nil))
        #expect(same.status == .pass, "TZ=UTC on a machine at Etc/UTC: \(same)")
        let other = Doctor.zoneFinding(berlin, now: now, pinned: true, machine: (etcUTC, nil))
        #expect(other.status == .warn && other.found.contains("TZ='Europe/Berlin' (CET, UTC+01:00)") && other.found.contains("Etc/UTC"), "\(other)")
        #expect(other.fix?.contains("systemctl --user unset-environment TZ") == true, "\(other)")
        #expect(Doctor.zoneFinding(berlin, now: now, pinned: false, machine: (berlin, nil)).status == .pass)
        let broken = Doctor.zoneFinding(.utc, now: now, pinned: false, machine: (.utc, "cannot read the local time zone from /etc/localtime: ..."))
        #expect(broken.status == .fail && broken.found.hasPrefix("cannot read the local time zone"), "\(broken)")
    }

    @Test("device null: sound.file and sound.device PASS, with what was decoded and opened")
    func nullDevice() throws {
        let w = try World()
        try w.add("work")
        let f = try w.findings()
        let file = try #require(Self.one(f, "sound.file", alarm: "work"), "\(Self.said(f))")
        #expect(file.status == .pass && file.found.hasPrefix("wake's built-in sound decodes") && file.found.contains("audible at volume 100 %"), "\(file)")
        let device = try #require(Self.one(f, "sound.device", alarm: "work"), "\(Self.said(f))")
        #expect(device.status == .pass && device.found.hasPrefix("device 'null' opens"), "\(device)")
        #expect(!f.contains { $0.area == .sound && $0.status != .pass }, "\(Self.said(f))")
    }

    @Test("two alarms on one device: each sound check said once, naming both; no alarm yet: a new alarm's path checked")
    func sharedAndFirst() throws {
        let w = try World()
        var f = try w.findings()
        // With no alarm: the path a first one rings on (here no sound server: 'default' may or may not open).
        let first = try #require(Self.one(f, "sound.file"), "\(Self.said(f))")
        #expect(first.alarms.isEmpty && first.found.hasPrefix("a new alarm: wake's built-in sound decodes"), "\(first)")
        #expect(f.contains { $0.check == "sound.device" && $0.alarms.isEmpty && $0.found.hasPrefix("a new alarm: ") }, "\(Self.said(f))")
        #expect(f.contains { $0.check == "files.alarms" && $0.found.contains("add one with 'wake add'") }, "\(Self.said(f))")
        try w.add("work")
        try w.add("gym")
        f = try w.findings()
        for check in ["sound.file", "sound.device"] {
            let shared = f.filter { $0.check == check }
            #expect(shared.count == 1 && shared.first?.alarms == ["gym", "work"], "\(check): \(Self.said(f))")
        }
        #expect(Self.said(f).contains("gym, work: device 'null' opens"), "\(Self.said(f))")
    }

    @Test("a --before-first-event calendar that no longer reads: files.calendars FAIL, the alarm does not ring, the fix says what to do")
    func unreadableFirstEventCalendar() throws {
        let w = try World()
        let gone = w.dir.path + "/work.ics"
        try w.context.store.update { alarms in
            alarms.append(StandingAlarm(name: "meet", hour: 0, minute: 0, second: 0, days: DaySet.weekdays.bits, date: nil,
                                        options: ["device": "null", "before-first-event": gone, "lead": "1h"],
                                        created: StandingActionsTests.now))
        }
        let f = try w.findings()
        let calendar = try #require(f.first { $0.check == "files.calendars" && $0.status == .fail }, "\(Self.said(f))")
        #expect(calendar.alarms == ["meet"] && calendar.found.contains("cannot read the calendar")
                    && calendar.found.hasSuffix(DayOffCalendars.eventsMeanwhile), "\(calendar)")
        #expect(calendar.fix?.hasPrefix("correct the calendar, or export it again from your calendar program") == true, "\(calendar)")
        #expect(!f.contains { $0.check == "files.calendars" && $0.status == .warn }, "said once, as the FAIL: \(Self.said(f))")
    }

    @Test("--say on: sound.speech PASS with what espeak-ng says; without it no such check")
    func speechCheck() throws {
        let world = try World()
        try world.add("spoken", ["device": "null", "say": "on", "message": "Bins out"])
        try world.add("quiet", ["device": "null"])
        let findings = try world.findings()
        let speech = try #require(Self.one(findings, "sound.speech", alarm: "spoken"), "\(Self.said(findings))")
        #expect(speech.status == .pass && speech.found.hasPrefix("espeak-ng speaks \"Bins out\" ("), "\(speech)")
        #expect(Self.one(findings, "sound.speech", alarm: "quiet") == nil, "\(Self.said(findings))")
    }

    @Test("the sound file deleted after wake add: sound.file WARN naming the file, the built-in sound rings instead; the fix says what to do")
    func deletedFile() async throws {
        let w = try World()
        let sound = try await makeSound(in: w.dir, name: "birds.wav", rate: 44100, channels: 1, seconds: "1")
        try w.add("work", ["device": "null", "sound": sound])
        #expect(try Self.one(w.findings(), "sound.file", alarm: "work")?.status == .pass)
        unlink(sound)
        let f = try w.findings()
        let file = try #require(Self.one(f, "sound.file", alarm: "work"), "\(Self.said(f))")
        #expect(file.status == .warn, "\(file)")
        #expect(file.found.contains("'\(sound)'") && file.found.hasSuffix("it will ring wake's built-in sound"), "\(file.found)")
        #expect(!file.found.hasPrefix("alarm 'work'"), "the alarm is named once, by the line's subject: \(file.found)")
        #expect(file.fix == "put the file back, or choose another ('wake remove work', then 'wake add ... -s FILE'); then 'wake test work' plays what it will ring", "\(file)")
        #expect(Self.one(f, "sound.device", alarm: "work")?.status == .pass, "the built-in sound still opens the device:\n\(Self.said(f))")
        #expect(DoctorReport(f.filter { $0.area == .sound || $0.area == .files }).worst == .warn)
    }

    @Test("a quiet file made silent by a later config.toml volume: sound.file WARN saying the level and the volume")
    func silentAtLaterVolume() async throws {
        let w = try World()
        let quiet = try await makeSound(in: w.dir, name: "quiet.wav", rate: 44100, channels: 1, seconds: "1", synth: ["sine", "440", "vol", "-50dB"])
        try w.add("work", ["device": "null", "sound": quiet])
        #expect(try Self.one(w.findings(), "sound.file", alarm: "work")?.status == .pass, "audible at wake's default volume")
        try w.write("config.toml", "volume = 20\n")
        let f = try w.findings()
        let file = try #require(Self.one(f, "sound.file", alarm: "work"), "\(Self.said(f))")
        #expect(file.status == .warn, "\(file)")
        #expect(file.found.contains("'\(quiet)'") && file.found.contains("the sound is silent") && file.found.contains("dBFS"), "\(file.found)")
        #expect(file.found.components(separatedBy: "--volume 20").count == 2, "the volume is said once: \(file.found)")
        #expect(file.fix?.hasPrefix("raise volume in config.toml (20 now), or choose a louder file") == true, "\(file)")
        #expect(Self.one(f, "files.config")?.status == .pass, "volume = 20 is a well-formed setting")
    }
}

extension TestDirectory {
    /// Writes `text` at `path` (any directory), 0600.
    static func writeFile(_ path: String, _ text: String) throws -> String {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw WakeTestError("open \(path): errno \(errno)") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw WakeTestError("write \(path): errno \(errno)")
        }
        fchmod(fd, 0o600)
        return path
    }
}
