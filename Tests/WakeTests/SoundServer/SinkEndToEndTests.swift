import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `--sink` on a real server (issue 52, item 3), PulseAudio and PipeWire, each with two null
/// sinks, `speaker` (the default) and `headphones`: a sink the server lacks is refused (69) with
/// the ones it has; `--sink headphones` is heard on the headphones' monitor and not on the
/// speaker's, `--sink all` on both; the headphones unloaded mid-ring (a USB card pulled out,
/// Bluetooth out of range), the sound goes on on the speaker and wake says so; loaded again, the
/// alarm rings on them again. In process: SinkArmChecksTests, SinkCommandTests.
@Suite("--sink: rung on the chosen sink, and on where the server moves it when it goes", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct SinkEndToEndTests {
    @Test("PulseAudio, as a desktop runs it (module-stream-restore)")
    func pulseAudio() async throws {
        try await PulseAudioServer.with(desktop: true) { try await chosenSinkThenUnloaded(on: $0) }
    }

    @Test("wake add by description stores the sink's name; wake doctor warns that it is Bluetooth, and where the alarm moves")
    func doctorWarnsOfBluetooth() async throws {
        try await PulseAudioServer.with { server in
            let load = try await server.pactl(["load-module", "module-null-sink", "sink_name=bluez_sink.buds",
                                               "sink_properties='device.bus=bluetooth device.description=Earbuds'"])
            #expect(load.exitCode == 0, "\(load)")
            let home = try TestDirectory("wake-sink-doctor")
            var environment = server.environment
            environment["HOME"] = home.path
            (environment["XDG_CONFIG_HOME"], environment["XDG_STATE_HOME"]) = (home.file("config"), home.file("state"))
            let add = try await WakeProcess.run(["add", "07:00", "--days", DoctorBench.farDay, "--name", "bed", "--sink", "Earbuds"],
                                                environment: environment)
            #expect(add.exitCode == 0, "\(add)")
            let stored = ChildProcess.read(home.file("config") + "/wake/alarms.toml")
            #expect(stored.contains("sink = \"bluez_sink.buds\""), "stored by its name: \(stored)")
            let doctor = try await WakeProcess.run(["doctor"], environment: environment, timeout: .seconds(60))
            #expect(doctor.stdout.contains("bed: it rings on the sink bluez_sink.buds (Earbuds), a Bluetooth device: "
                + "if it disconnects, the alarm moves to 'Null Output'"), "\(doctor)")
        }
    }

    @Test("PipeWire with wireplumber and pipewire-pulse",
          .enabled(if: PipeWireServer.isAvailable, "needs pipewire, wireplumber, pipewire-pulse"))
    func pipeWire() async throws {
        try await PipeWireServer.with { try await chosenSinkThenUnloaded(on: $0) }
    }
}

func chosenSinkThenUnloaded(on server: some SoundServerFixture) async throws {
    let refused = try await WakeProcess.run(["07:00", "--dry-run", "--sink", "nosuch", "--inhibit", "off"], environment: server.environment)
    #expect(refused.exitCode == 69 && refused.stderr.contains("--sink 'nosuch': the sound server has no such sink (its sinks: ")
            && refused.stderr.contains("speaker") && refused.stderr.contains("headphones"), "\(refused)")

    let list = try await WakeProcess.run(["--list-devices"], environment: server.environment)
    #expect(list.exitCode == 0 && list.stdout.contains("sound server sinks (--sink NAME or DESCRIPTION):\nspeaker\n")
            && list.stdout.contains("\nheadphones\n"), "\(list)")

    let speaker = try await server.record(sink: "speaker")
    let headphones = try await server.record(sink: "headphones")
    // --sink all: one stream, heard on both sinks; the combined sink is gone after the ring.
    let all = try DetachedWake(["now", "--sink", "all", "--inhibit", "off", "--ring-for", "30s"], environment: server.environment)
    try await all.waitForEvent("ringing", timeout: .seconds(20))
    let (onSpeaker, onHeadphones) = (speaker.mark(), headphones.mark())
    #expect(await speaker.waitForSound(after: onSpeaker, timeout: .seconds(10)), "the speaker hears --sink all: \(all.events)")
    #expect(await headphones.waitForSound(after: onHeadphones, timeout: .seconds(10)), "the headphones hear --sink all: \(all.events)")
    all.send(SIGINT)
    let allEnd = await all.wait(timeout: .seconds(20))
    #expect(allEnd.exitCode == 0, "\(all.report(allEnd))")
    let left = try await server.pactl(["list", "short", "sinks"], timeout: .seconds(10))
    #expect(!left.stdout.contains("wake_all"), "the combined sink is unloaded: \(left)")
    try await Task.sleep(for: .seconds(1))  // what the monitors still had of it

    let ring = try DetachedWake(["now", "--sink", "headphones", "--inhibit", "off", "--ring-for", "40s"], environment: server.environment)
    try await ring.waitForEvent("ringing", timeout: .seconds(20))
    let start = speaker.mark()
    #expect(await headphones.waitForSound(timeout: .seconds(10)), "the headphones hear the alarm: \(ring.events)")
    try await Task.sleep(for: .seconds(1))
    #expect(speaker.audibleFrames(from: start) == 0, "the speaker hears nothing while the alarm rings on the headphones")

    // The headphones go away: the server moves the stream to the speaker, and wake says so.
    let modules = try await server.pactl(["list", "short", "modules"], timeout: .seconds(10))
    let line = modules.stdout.split(separator: "\n").first { $0.contains("sink_name=headphones") }
    let module = try #require(line?.split(separator: "\t").first,
                              "\(modules)")
    let gone = speaker.mark()
    let unload = try await server.pactl(["unload-module", String(module)], timeout: .seconds(10))
    #expect(unload.exitCode == 0, "\(unload)")
    #expect(await speaker.waitForSound(after: gone, timeout: .seconds(10)),
            "the speaker hears it once the headphones are gone: \(ring.events)")
    let moved = try await ring.waitForEvent("sink_moved", timeout: .seconds(10))
    #expect(moved["sink"] == "headphones" && moved["to"] == "speaker" && moved["gone"] == "1", "\(moved)")

    // They come back: the alarm rings on them again.
    let back = headphones.mark()
    let reload = try await server.pactl(["load-module", "module-null-sink", "sink_name=headphones"], timeout: .seconds(10))
    #expect(reload.exitCode == 0, "\(reload)")
    let returned = try await ring.waitForEvent("sink_moved", occurrence: 2, timeout: .seconds(15))
    #expect(returned["to"] == "headphones" && returned["gone"] == "0", "\(returned)")
    #expect(await headphones.waitForSound(after: back, timeout: .seconds(10)), "the headphones hear it again: \(ring.events)")
    ring.send(SIGINT)
    let r = await ring.wait(timeout: .seconds(20))
    #expect(r.stderr.contains("the sink 'headphones' is gone: ringing on 'speaker"), "\(ring.report(r))")
    #expect(r.stderr.contains("the sink 'headphones' is back: ringing on it"), "\(ring.report(r))")
}
