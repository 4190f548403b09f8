import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 22, owning the stream: the sound server remembers each application's stream mute,
/// volume and sink (PulseAudio's module-stream-restore, wireplumber's restore-stream). A stream
/// muted, turned down to 5 % and moved to a muted second sink in one ring is heard at the next
/// (the monitor of the sink it plays on holds sound), and afterwards the user's settings are
/// what they were: the sink muted at 10 %, and the remembered stream muted at 5 % on it (seen
/// by a third ring with `--mixer off`). The stream says it is "wake", role "alarm".
@Suite("Own the stream: a stream muted once is heard at the next ring", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct StreamGuardTests {
    @Test("PulseAudio with module-stream-restore")
    func pulseAudio() async throws {
        try await PulseAudioServer.with(desktop: true) { try await rememberedStream(on: $0) }
    }

    @Test("PipeWire with wireplumber and pipewire-pulse", .enabled(if: PipeWireServer.isAvailable, "needs pipewire, wireplumber, pipewire-pulse"))
    func pipeWire() async throws {
        try await PipeWireServer.with { try await rememberedStream(on: $0) }
    }

    /// The guard follows the opened PCM's type (an I/O plugin), not the name `default` or `pulse`.
    @Test("a PCM of one's own over pulse (pcm.mine { type pulse } in ~/.asoundrc) is guarded as default is")
    func ownPCMOverPulse() async throws {
        try await PulseAudioServer.with(desktop: true) { server in
            let home = try TestDirectory("wake-asoundrc")
            try Data("pcm.mine { type pulse }\n".utf8).write(to: URL(fileURLWithPath: home.path + "/.asoundrc"))
            var environment = server.environment
            environment["HOME"] = home.path
            let ring = ["now", "-D", "mine", "--inhibit", "off", "--ring-for"]
            // Ring 1, without the guard: the user mutes wake's stream, and the server remembers it.
            let first = try DetachedWake(ring + ["10s", "--mixer", "off"], environment: environment)
            try await first.waitForEvent("ringing", timeout: .seconds(20))
            let s1 = try await server.stream(of: first.pid)
            try await server.run(["set-sink-input-mute", s1.index, "1"])
            _ = await first.wait(timeout: .seconds(30))
            // Ring 2: the remembered mute is lifted while it rings, and put back after.
            let second = try DetachedWake(ring + ["8s"], environment: environment)
            try await second.waitForEvent("ringing", timeout: .seconds(20))
            let s2 = try await server.stream(of: second.pid)
            #expect(!s2.muted && s2.percent >= 50, "while ringing on 'mine': \(s2)")
            let r2 = await second.wait(timeout: .seconds(30))
            #expect(r2.exitCode == 4, "\(second.report(r2))")
            #expect(second.events.contains { $0.name == "mixer_raised" && $0["mixer"] == "pulse-stream" }, "\(second.report(r2))")
            withExtendedLifetime(home) {}
        }
    }

    @Test("SIGKILL while the stream's own sink (not the default) is raised: the next start puts that sink back")
    func killedWhileSinkRaised() async throws {
        try await PulseAudioServer.with(desktop: true) { pa in
            let ring = ["now", "-D", "default", "--inhibit", "off", "--ring-for"]
            let first = try DetachedWake(ring + ["10s", "--mixer", "off"], environment: pa.environment)
            try await first.waitForEvent("ringing", timeout: .seconds(20))
            try await pa.run(["move-sink-input", try await pa.stream(of: first.pid).index, "headphones"])
            _ = await first.wait(timeout: .seconds(30))
            try await pa.run(["set-sink-mute", "headphones", "1"])
            try await pa.run(["set-sink-volume", "headphones", "10%"])
            let second = try DetachedWake(ring + ["60s"], environment: pa.environment)
            try await second.waitForEvent("ringing", timeout: .seconds(20))
            let deadline = ContinuousClock.now + .seconds(10)
            while !second.events.contains(where: { $0.name == "mixer_raised" && $0["mixer"] == "pulse-sink:headphones" }) {
                if ContinuousClock.now >= deadline { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let raised = try await pa.sinkLevels("headphones")
            #expect(!raised.muted && raised.percent >= 50, "raised while ringing: \(raised)\n\(second.events)")
            second.send(SIGKILL)
            _ = await second.wait(timeout: .seconds(10))
            let next = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"], environment: pa.environment)
            #expect(next.stderr.contains("pulse-sink:headphones"), "the next start says it put the sink back: \(next)")
            let after = try await pa.sinkLevels("headphones")
            #expect(after.muted && after.percent == 10, "the headphones are muted at 10 % again: \(after)")
        }
    }

    @Test("SIGKILL while wake's own stream is raised: the next start puts back what the server remembers of it",
          arguments: ["PulseAudio", "PipeWire"])
    func killedWhileStreamRaised(server: String) async throws {
        if server == "PipeWire" {
            guard PipeWireServer.isAvailable else { return }
            try await PipeWireServer.with { try await streamKilledWhileRaised(on: $0) }
        } else {
            try await PulseAudioServer.with(desktop: true) { try await streamKilledWhileRaised(on: $0) }
        }
    }
}

func rememberedMuteWithMixerOff(on server: some SoundServerFixture) async throws {
    let ring = ["now", "-D", "default", "--inhibit", "off", "--mixer", "off", "--ring-for"]
    // Ring 1: the user mutes wake's stream and turns it down to 5 %; the server remembers that.
    let first = try DetachedWake(ring + ["15s"], environment: server.environment)
    try await first.waitForEvent("ringing", timeout: .seconds(20))
    let s1 = try await server.stream(of: first.pid)
    try await server.run(["set-sink-input-mute", s1.index, "1"])
    try await server.run(["set-sink-input-volume", s1.index, "5%"])
    await server.waitUntilRemembered(target: "speaker", muted: nil)
    _ = await first.wait(timeout: .seconds(30))
    try await server.run(["set-sink-volume", "speaker", "70%"])
    let sinkBefore = try await server.sinkLevels("speaker")

    let dry = try await WakeProcess.run(["07:00", "--dry-run", "-D", "default", "--mixer", "off", "--inhibit", "off"], environment: server.environment)
    #expect(dry.stdout.contains("left alone: --mixer off (on a sound server, wake's own stream is still unmuted and raised to 50 % while ringing)"),
            "the dry run says what --mixer off leaves and what it does not: \(dry)")

    // Ring 2, --mixer off: heard.
    let recorder = try await server.record(sink: "speaker")
    let second = try DetachedWake(ring + ["10s"], environment: server.environment)
    try await second.waitForEvent("ringing", timeout: .seconds(20))
    #expect(await recorder.waitForSound(timeout: .seconds(10)), "the speaker hears the alarm, not zeros: \(second.events)")
    let s2 = try await server.stream(of: second.pid)
    #expect(!s2.muted && s2.percent >= 50, "wake's stream is unmuted and raised while ringing: \(s2)")
    #expect(try await server.sinkLevels("speaker") == sinkBefore, "the sink is the user's: left alone")
    let r2 = await second.wait(timeout: .seconds(30))
    var said = "wake \(second.pid): \(r2.stderr)\n"
    #expect(r2.exitCode == 4, "\(second.report(r2))")
    let raised = second.events.first { $0.name == "mixer_raised" && $0["mixer"] == "pulse-stream" }
    #expect(raised?["from"] == "5" && raised?["muted"] == "1" && raised?["to"] == "50", "\(second.report(r2))")
    #expect(!second.events.contains { $0.name == "mixer_raised" && $0["mixer"] != "pulse-stream" }, "nothing but the stream: \(second.report(r2))")
    #expect((r2.stdout + r2.stderr).contains("on 'pulse-stream'): unmuted and raised to 50 % while ringing"), "\(second.report(r2))")

    // Afterwards the server remembers the stream as the user left it (seen by the next ring's guard).
    // wireplumber stores a restore made just before the stream ends a moment later, and under load
    // (CI of 32d4cdf) a ring started after the wait once found the volume put back and the mute not
    // yet: the next ring is looked at once more before the test says the mute was lost.
    var found: [String: String]?
    var thirdEvents = ""
    for _ in 0..<2 where found?["muted"] != "1" {
        await server.waitUntilRemembered(target: "speaker", muted: true)
        let third = try DetachedWake(ring + ["6s"], environment: server.environment)
        try await third.waitForEvent("ringing", timeout: .seconds(20))
        let r3 = await third.wait(timeout: .seconds(30))
        let raised = third.events.first { $0.name == "mixer_raised" && $0["mixer"] == "pulse-stream" }
        found = raised.map { ["from": $0["from"] ?? "", "muted": $0["muted"] ?? ""] }
        thirdEvents = "\(third.events)"
        said += "wake \(third.pid): \(r3.stderr)\n"
    }
    #expect(found?["from"] == "5" && found?["muted"] == "1", "put back as the user left it: \(thirdEvents)")
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: server.stateHome + "/wake")) ?? []).filter { $0.hasPrefix("mixer-") }
    // A save file stays only where a put-back failed and was said (under ASan's slowdown libpulse
    // once timed out: CI of c50cdf8); the next start of wake restores it (streamKilledWhileRaised).
    let toldLeft = said.contains("the next start of wake puts") || said.contains("they may stay raised")
    #expect(files.isEmpty || toldLeft, "no save file left: \(files)\n\(said)")
}

func streamKilledWhileRaised(on server: some SoundServerFixture) async throws {
    let ring = ["now", "-D", "default", "--inhibit", "off", "--ring-for"]
    // The user mutes wake's stream and turns it down to 5 %; the server remembers that.
    let first = try DetachedWake(ring + ["10s", "--mixer", "off"], environment: server.environment)
    try await first.waitForEvent("ringing", timeout: .seconds(20))
    let s1 = try await server.stream(of: first.pid)
    try await server.run(["set-sink-input-mute", s1.index, "1"])
    try await server.run(["set-sink-input-volume", s1.index, "5%"])
    _ = await first.wait(timeout: .seconds(30))
    // The next alarm raises its stream, and is killed while it rings.
    let second = try DetachedWake(ring + ["60s"], environment: server.environment)
    try await second.waitForEvent("ringing", timeout: .seconds(20))
    let deadline = ContinuousClock.now + .seconds(10)
    while !second.events.contains(where: { $0.name == "mixer_raised" && $0["mixer"] == "pulse-stream" }), ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(100))
    }
    #expect(second.events.contains { $0.name == "mixer_raised" && $0["mixer"] == "pulse-stream" }, "\(second.events)")
    second.send(SIGKILL)
    _ = await second.wait(timeout: .seconds(10))
    // Any next wake command puts the remembered stream back, and says so.
    let next = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"], environment: server.environment)
    if !(server is PulseAudioServer) {
        // pipewire-pulse lists no stream restore entries: wake says it cannot put the stream
        // back, once (the entry is not kept to fail at every start).
        #expect(next.stderr.contains("pulse-stream-restore:") && next.stderr.contains("cannot be put back"), "\(next)")
        let again = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"], environment: server.environment)
        #expect(!again.stderr.contains("pulse-stream-restore:"), "said once: \(again)")
        return
    }
    #expect(next.stderr.contains("put back the mixer 'pulse-stream-restore:"), "the next start says it put the stream back: \(next)")
    let third = try DetachedWake(ring + ["8s", "--mixer", "off"], environment: server.environment)
    try await third.waitForEvent("ringing", timeout: .seconds(20))
    _ = await third.wait(timeout: .seconds(30))
    let found = third.events.first { $0.name == "mixer_raised" && $0["mixer"] == "pulse-stream" }
    #expect(found?["from"] == "5" && found?["muted"] == "1", "the server remembers the stream as the user left it: \(third.events)")
}

/// One sink-input as `pactl list sink-inputs` shows it.
struct ServerStream: CustomStringConvertible {
    var index = ""
    var sink = ""
    var muted = false
    var percent = -1
    var properties: [String: String] = [:]
    var description: String { "#\(index) on sink \(sink), \(muted ? "muted" : "unmuted") \(percent) %, \(properties)" }
}

extension SoundServerFixture {
    func streams() async throws -> [ServerStream] {
        let r = try await pactl(["list", "sink-inputs"], timeout: .seconds(10))
        var out: [ServerStream] = []
        for line in r.stdout.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("Sink Input #") { out.append(ServerStream(index: String(line.dropFirst(12)))); continue }
            guard !out.isEmpty else { continue }
            if line.hasPrefix("Sink: ") { out[out.count - 1].sink = String(line.dropFirst(6)) }
            else if line.hasPrefix("Mute: ") { out[out.count - 1].muted = line.hasSuffix("yes") }
            else if line.hasPrefix("Volume: "), let pct = line.split(separator: "/").dropFirst().first {
                out[out.count - 1].percent = Int(pct.trimmingCharacters(in: .whitespaces).dropLast()) ?? -1
            } else if let eq = line.range(of: " = \"") {
                out[out.count - 1].properties[String(line[..<eq.lowerBound])] = String(line[eq.upperBound...].dropLast())
            }
        }
        return out
    }

    /// The stream of process `pid`, once the server lists it.
    func stream(of pid: pid_t, timeout: Duration = .seconds(10)) async throws -> ServerStream {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let s = try await streams().last(where: { $0.properties["application.process.id"] == "\(pid)" }) { return s }
            if ContinuousClock.now >= deadline { throw WakeTestError("no stream of pid \(pid): \(try await streams())") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func sinkIndex(_ name: String) async throws -> String {
        let r = try await pactl(["list", "short", "sinks"], timeout: .seconds(10))
        for line in r.stdout.split(separator: "\n") {
            let f = line.split(separator: "\t")
            if f.count > 1, f[1] == name { return String(f[0]) }
        }
        throw WakeTestError("no sink \(name): \(r)")
    }

    /// `muted` and the volume percent of a sink.
    func sinkLevels(_ name: String) async throws -> (muted: Bool, percent: Int) {
        let m = try await pactl(["get-sink-mute", name], timeout: .seconds(10))
        let v = try await pactl(["get-sink-volume", name], timeout: .seconds(10))
        let pct = v.stdout.split(separator: "/").dropFirst().first.map { $0.trimmingCharacters(in: .whitespaces).dropLast() }
        return (m.stdout.contains("yes"), pct.flatMap { Int($0) } ?? -1)
    }

    func run(_ args: [String]) async throws {
        let r = try await pactl(args, timeout: .seconds(10))
        guard r.exitCode == 0 else { throw WakeTestError("pactl \(args.joined(separator: " ")) failed: \(r)") }
    }
}

func rememberedStream(on server: some SoundServerFixture) async throws {
    let ring = ["now", "-D", "default", "--inhibit", "off", "--ring-for"]
    // Ring 1: the user mutes wake's stream, turns it down to 5 % and moves it to the headphones, muted at 10 %.
    // Rings long enough for a loaded machine's pactl calls to find the stream still there.
    let first = try DetachedWake(ring + ["15s"], environment: server.environment)
    try await first.waitForEvent("ringing", timeout: .seconds(20))
    let s1 = try await server.stream(of: first.pid)
    #expect(s1.properties["application.name"] == "wake" && s1.properties["media.role"] == "alarm", "the stream says what it is: \(s1)")
    try await server.run(["set-sink-input-mute", s1.index, "1"])
    try await server.run(["set-sink-input-volume", s1.index, "5%"])
    try await server.run(["move-sink-input", s1.index, "headphones"])
    try await server.run(["set-sink-mute", "headphones", "1"])
    try await server.run(["set-sink-volume", "headphones", "10%"])
    await server.waitUntilRemembered(target: "headphones", muted: nil)
    let r1 = await first.wait(timeout: .seconds(30))
    #expect(r1.exitCode == 4, "\(first.report(r1))")
    let headphones = try await server.sinkIndex("headphones")

    // Ring 2: heard where the server put the stream back: the headphones. (PulseAudio always
    // restores the move; wireplumber, on a loaded machine, has been seen to link the new stream
    // to the default sink first. wake's part is the same either way: the sink it plays on is heard.)
    let onHeadphones = try await server.record(sink: "headphones")
    let onSpeaker = try await server.record(sink: "speaker")
    let second = try DetachedWake(ring + ["12s"], environment: server.environment)
    try await second.waitForEvent("ringing", timeout: .seconds(20))
    let s2 = try await server.stream(of: second.pid)
    let restoredMove = s2.sink == headphones
    if server is PulseAudioServer || !restoredMove {
        #expect(restoredMove || !(server is PulseAudioServer), "PulseAudio restores the move: \(s2)")
    }
    if !restoredMove { print("note: the sound server did not restore the stream's move to the headphones: \(s2)") }
    #expect(await (restoredMove ? onHeadphones : onSpeaker).waitForSound(timeout: .seconds(8)), "the sink it plays on holds the alarm, not zeros: \(s2)")
    #expect(!s2.muted && s2.percent >= 50, "while ringing: \(s2)")
    let r2 = await second.wait(timeout: .seconds(30))
    #expect(r2.exitCode == 4, "\(second.report(r2))")
    #expect(second.events.contains { $0.name == "mixer_raised" && $0["mixer"] == "pulse-stream" }, "\(second.report(r2))")
    if restoredMove {
        #expect(second.events.contains { $0.name == "mixer_restored" && $0["mixer"] == "pulse-sink:headphones" }, "\(second.report(r2))")
    }

    // Afterwards: what the user set is what the server has, and remembers.
    let sink = try await server.sinkLevels("headphones")
    #expect(sink.muted && sink.percent == 10, "the headphones are muted at 10 % again: \(sink)")
    // A third ring sees the stream as the server remembers it: what its guard found (and raised).
    // wireplumber writes what it remembers a moment after the stream goes: waited for, as after ring 1.
    await server.waitUntilRemembered(target: "headphones", muted: true)
    let third = try DetachedWake(ring + ["8s", "--mixer", "off"], environment: server.environment)
    try await third.waitForEvent("ringing", timeout: .seconds(20))
    let s3 = try await server.stream(of: third.pid)
    if server is PulseAudioServer { #expect(s3.sink == headphones, "\(s3)") }
    _ = await third.wait(timeout: .seconds(30))
    let found = third.events.first { $0.name == "mixer_raised" && $0["mixer"] == "pulse-stream" }
    #expect(found?["from"] == "5" && found?["muted"] == "1", "the remembered stream is as the user left it: \(third.events)")
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: server.stateHome + "/wake")) ?? []).filter { $0.hasPrefix("mixer-") }
    #expect(files.isEmpty, "no save file left: \(files)")
}
