import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// The lamp and the music examples of examples/hooks, each run as a hook is run (`HOOK EVENT
/// ALARM`, only the environment the manual lists, the event's JSON line on standard input) against
/// the real thing it drives: a WLED lamp's HTTP API (a local recorder), brightnessctl (a stand-in
/// recording its arguments: the container has no backlight), and a real MPRIS player on a private
/// session bus driven by the real playerctl. No daemon: which events reach a hook, and how, is
/// HookEndToEndTests' and HookBrokerEndToEndTests'.
@Suite("Hooks: the lamp and music examples")
struct HookExampleTests {
    /// Runs examples/hooks/NAME as the dispatcher would: `env -i` with the passed variables and WAKE_*.
    func runExample(_ name: String, _ event: String, home: HookHome, path: String = "/usr/bin:/bin",
                    extra: [String: String] = [:], fields: String = "") async throws -> ProcessResult {
        var env = ["PATH": path, "HOME": home.dir.path, "USER": "u", "LOGNAME": "u", "XDG_RUNTIME_DIR": home.dir.file("run"),
                   "WAKE_EVENT": event, "WAKE_ALARM": "morning", "WAKE_TIME": "2026-12-04T06:30:00+00:00"]
        env.merge(extra) { $1 }
        let line = #"{"time":"2026-12-04T06:30:00.012+00:00","event":"\#(event)","alarm":"morning"\#(fields)}"# + "\n"
        let p = try ChildProcess("/usr/bin/env", ["-i"] + env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                                 + [HookHome.examples + "/" + name, event, "morning"], stdin: .text(line), directory: home.dir)
        let r = await p.wait(timeout: .seconds(60))
        #expect(!r.timedOut, "\(name) \(event) hung: \(r)")
        return r
    }

    @Test("50-lamp: WLED_HOST in hooks.env: a sunrise over its span, full brightness on at the ring, 10 % at the stop, nothing on a snooze")
    func lampOverWLED() async throws {
        let dir = try TestDirectory("wake-hook-lamp")
        let lamp = try await HTTPRecorder.start(in: dir)
        defer { lamp.stop() }
        let home = HookHome(dir)
        try home.write(".config/wake/hooks.env", "HA_WEBHOOK_URL=http://127.0.0.1:1/unused\nWLED_HOST=127.0.0.1:\(lamp.port)\n")
        let sunrise = try await runExample("50-lamp", "sunrise", home: home,
                                           fields: #","deadline":"2026-12-04T06:30:00+00:00","over_s":1200"#)
        #expect(sunrise.exitCode == 0 && sunrise.stdout.isEmpty && sunrise.stderr.isEmpty, "\(sunrise)")
        for event in ["ringing", "snoozed", "stopped"] {
            let r = try await runExample("50-lamp", event, home: home)
            #expect(r.exitCode == 0 && r.stdout.isEmpty && r.stderr.isEmpty, "\(event): \(r)")
        }
        let requests = lamp.requests
        #expect(requests.map(\.path) == Array(repeating: "/json/state", count: 4) && requests.allSatisfy { $0.type == "application/json" },
                "\(requests)")
        let states = requests.compactMap { HookHome.object($0.body) }
        #expect(states.map { $0["on"] as? Bool } == [true, true, true, true] && states.map { $0["bri"] as? Int } == [1, 255, 255, 25],
                "\(requests)")
        #expect(states.map { $0["transition"] as? Int } == [0, 12000, 0, 0], "from its lowest, rising over 20 minutes: \(requests)")
    }

    @Test("50-lamp without WLED: brightnessctl sets 100 % and 10 %; with no brightnessctl either, one line and a failure wake says")
    func lampOnBacklight() async throws {
        let dir = try TestDirectory("wake-hook-backlight")
        let home = HookHome(dir)
        // Only what the example needs beside the program: no brightnessctl on this PATH, whatever the machine has.
        let tools = dir.file("tools"), fake = dir.file("fake")
        for d in [tools, fake] { mkdir(d, 0o755) }
        for tool in ["sed", "tail"] { symlink("/usr/bin/" + tool, tools + "/" + tool) }
        let record = dir.file("brightnessctl.args")
        _ = try dir.write("fake/brightnessctl", Array("#!/bin/sh\necho \"$*\" >> \(record)\n".utf8), mode: 0o755)

        for event in ["ringing", "snoozed", "stopped"] {
            let r = try await runExample("50-lamp", event, home: home, path: fake + ":" + tools)
            #expect(r.exitCode == 0 && r.stderr.isEmpty, "\(event): \(r)")
        }
        #expect(ChildProcess.read(record) == "-q set 100%\n-q set 10%\n")

        let r = try await runExample("50-lamp", "ringing", home: home, path: tools)
        #expect(r.exitCode == 1 && r.stderr.isEmpty, "\(r)")
        #expect(r.stdout == "no WLED_HOST in ~/.config/wake/hooks.env and no brightnessctl\n", "\(r)")
    }

    /// An MPRIS player (python-dbusmock, a template of the test's own) that logs each call.
    static let player = """
        import dbus
        BUS_NAME = 'org.mpris.MediaPlayer2.radio'
        MAIN_OBJ = '/org/mpris/MediaPlayer2'
        MAIN_IFACE = 'org.mpris.MediaPlayer2.Player'
        SYSTEM_BUS = False

        def load(mock, parameters):
            mock.AddProperties('org.mpris.MediaPlayer2', {
                'Identity': 'radio', 'CanQuit': False, 'CanRaise': False, 'HasTrackList': False,
                'SupportedUriSchemes': dbus.Array([], signature='s'), 'SupportedMimeTypes': dbus.Array([], signature='s')})
            mock.AddProperties(MAIN_IFACE, {
                'PlaybackStatus': 'Paused', 'CanControl': True, 'CanPlay': True, 'CanPause': True, 'CanGoNext': False,
                'CanGoPrevious': False, 'CanSeek': False, 'Rate': 1.0, 'Volume': 1.0, 'Position': dbus.Int64(0),
                'Metadata': dbus.Dictionary({}, signature='sv')})
            mock.AddMethods(MAIN_IFACE, [
                ('Play', '', '', 'self.Set("org.mpris.MediaPlayer2.Player", "PlaybackStatus", "Playing")'),
                ('Pause', '', '', ''), ('PlayPause', '', '', ''), ('Stop', '', '', '')])
        """

    @Test("50-music-after-stop: playerctl starts a real MPRIS player after the stop, and only then; under wake test it says so instead",
          .enabled(if: NotificationMock.isAvailable && Playerctl.isAvailable, "needs dbus-daemon, python3-dbusmock and playerctl"))
    func musicAfterStop() async throws {
        try await NotificationMock.with(server: false) { bus in
            let template = try bus.directory.write("mpris_radio.py", Array(Self.player.utf8))
            try await bus.bus.startMock(["--template", template], template: "mpris_radio", service: "org.mpris.MediaPlayer2.radio",
                                        deadline: .now + .seconds(60)) {
                let r = try await ChildProcess(Playerctl.path, ["-l"], environment: bus.environment, directory: bus.directory)
                    .wait(timeout: .seconds(30))
                return r.stdout.contains("radio")
            }
            let home = HookHome(try TestDirectory("wake-hook-music"))
            let session = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            func plays() -> Int { ChildProcess.read(bus.logPath).split(separator: "\n").filter { $0.hasSuffix(" Play") }.count }

            for event in ["ringing", "snoozed", "timed_out"] {
                let r = try await runExample("50-music-after-stop", event, home: home, extra: session)
                #expect(r.exitCode == 0 && r.stdout.isEmpty && r.stderr.isEmpty, "\(event): \(r)")
            }
            let test = try await runExample("50-music-after-stop", "stopped", home: home, extra: session.merging(["WAKE_TEST": "1"]) { $1 })
            #expect(test.exitCode == 0 && test.stdout == "would start the music\n", "\(test)")
            #expect(plays() == 0, "\(ChildProcess.read(bus.logPath))")

            let r = try await runExample("50-music-after-stop", "stopped", home: home, extra: session)
            #expect(r.exitCode == 0 && r.stderr.isEmpty, "\(r)")
            #expect(plays() == 1, "Play called once: \(ChildProcess.read(bus.logPath))")
            let status = try await ChildProcess(Playerctl.path, ["-p", "radio", "status"], environment: bus.environment,
                                                directory: bus.directory).wait(timeout: .seconds(30))
            #expect(status.stdout == "Playing\n", "\(status)")
        }
    }
}
