import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 55, the desktop's conventions: the volume control (pavucontrol, GNOME's sound panel)
/// names wake's stream for the alarm it plays, "Alarm 06:30", as the media widget does, not
/// "ALSA Playback" as ALSA's pulse plugin names every stream. wake plays its own stream where
/// the alarm's PCM is that plugin, on the sink the PCM names, read with `pactl list sink-inputs`.
@Suite("The stream is named for the alarm in the volume control", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct StreamNameTests {
    @Test("PulseAudio: `default` plays wake's own stream, named for the alarm, heard on the default sink")
    func pulseAudio() async throws {
        try await PulseAudioServer.with(desktop: true) { try await namedStream(on: $0) }
    }

    @Test("PipeWire through pipewire-pulse", .enabled(if: PipeWireServer.isAvailable, "needs pipewire, wireplumber, pipewire-pulse"))
    func pipeWire() async throws {
        try await PipeWireServer.with { try await namedStream(on: $0) }
    }

    @Test("--sink headphones: the named stream is made on the headphones (the PCM's own sink), heard there")
    func chosenSink() async throws {
        try await PulseAudioServer.with(desktop: true) { server in
            let heard = try await server.record(sink: "headphones")
            let wake = try DetachedWake(["now", "-D", "default", "--sink", "headphones", "--inhibit", "off", "--ring-for", "10s"],
                                        environment: server.environment.merging(["TZ": "UTC"]) { $1 })
            try await wake.waitForEvent("ringing", timeout: .seconds(20))
            let stream = try await server.stream(of: wake.pid)
            #expect(stream.sink == (try await server.sinkIndex("headphones")), "\(stream)")
            #expect(stream.properties["media.name"] == "Alarm \(try hhmm(wake))", "\(stream)")
            #expect(await heard.waitForSound(timeout: .seconds(8)), "the headphones' monitor holds the alarm: \(stream)")
            wake.send(SIGTERM)
            _ = await wake.wait(timeout: .seconds(20))
        }
    }
}

/// The armed deadline's time of day as the one-off's title says it under TZ=UTC: `now` keeps its
/// seconds, unless they are zero.
private func hhmm(_ wake: DetachedWake) throws -> String {
    let deadline = try #require(wake.events.first { $0.name == "armed" }?["deadline"])
    let time = deadline.dropFirst(11).prefix(8)
    return String(time.hasSuffix(":00") ? time.prefix(5) : time)
}

private func namedStream(on server: some SoundServerFixture) async throws {
    let heard = try await server.record(sink: "speaker")
    let wake = try DetachedWake(["now", "-D", "default", "--inhibit", "off", "--ring-for", "10s"],
                                environment: server.environment.merging(["TZ": "UTC"]) { $1 })
    try await wake.waitForEvent("ringing", timeout: .seconds(20))
    let stream = try await server.stream(of: wake.pid)
    #expect(stream.properties["media.name"] == "Alarm \(try hhmm(wake))", "\(stream)")
    // The rest is as the plugin's stream said it: wake, its role (what the server's stream
    // restore keys on) and its icon, from the context.
    #expect(stream.properties["application.name"] == "wake" && stream.properties["media.role"] == "alarm"
        && stream.properties["application.icon_name"] == "alarm-clock", "\(stream)")
    #expect(try await server.streams().allSatisfy { $0.properties["media.name"] != "ALSA Playback" }, "no plugin stream beside it")
    #expect(await heard.waitForSound(timeout: .seconds(8)), "the default sink's monitor holds the alarm: \(stream)")
    let r = await wake.wait(timeout: .seconds(30))
    #expect(r.exitCode == 4, "\(wake.report(r))")
}
