import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 37 (7): every start puts back the mixer levels a dead wake left raised, in a call given
/// up after 3 s when the sound server does not answer. That call was not stopped: when the
/// server thawed it finished inside the daemon and muted the sink in the middle of a ring, with
/// no line. Now it changes nothing once given up (the levels wait in their file for the next
/// start), its end is said in one line, and a ringing worker looks at its output again.
@Suite("A put-back given up at start never mutes a ring", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct AbandonedRestoreTests {
    @Test("leftover levels, the server frozen at the daemon's start, a ring into it, then SIGCONT: the ring is heard, the sink stays up, one line says so")
    func frozenAtStartThenThawedMidRing() async throws {
        try await PulseAudioServer.with { pa in
            let config = try TestDirectory("wake-late-restore")
            var env = pa.environment
            env["XDG_CONFIG_HOME"] = config.file("config")
            env["TZ"] = "UTC"
            // As a wake killed mid-ring left it: the sink raised from muted 10 % to 50 %, saved.
            try await pa.turnDown("speaker", percent: 50, mute: false)
            let add = try await WakeProcess.run(["add", AlarmHome.soon(14), "--name", "late", "-D", "default", "--ring-for", "60s"], environment: env)
            #expect(add.exitCode == 0, "\(add)")
            let leftover = try pa.leaveMixerLevels(pid: 999_999, entries: ["default\tMaster\t0\t65536\t6553,6553\t0\t32768,32768\t1"])
            let recorder = try await pa.record()

            try await pa.freeze()
            let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notify", "off"], environment: env, directory: config)
            _ = try await daemon.waitForOutput(containing: "did not answer in 3s; nothing more is changed now", onStderr: true, timeout: .seconds(20))
            // The deadline comes while the server is still frozen: the ring stalls and falls back.
            try await daemon.waitForEvent("fallback", timeout: .seconds(40))
            let thawed = recorder.mark()
            pa.thaw()

            try await daemon.waitForEvent("ringing", timeout: .seconds(30))
            #expect(await recorder.waitForSound(after: thawed, timeout: .seconds(15)), "the speaker hears the ring after the thaw\n\(daemon.events)")
            let ended = try await daemon.waitForEvent("problem", timeout: .seconds(20))
            #expect(ended["reason"]?.contains("given up at start when the sound server did not answer, has ended: it changed nothing, "
                                              + "and the saved levels wait for the next start of wake") == true, "\(daemon.events)")
            _ = try await daemon.waitForOutput(containing: "has ended: it changed nothing", onStderr: true, timeout: .seconds(5))
            // While it rings, after the put-back has ended: the sink stays up, and it is heard.
            for _ in 0..<5 {
                let s = try await pa.sink("speaker")
                #expect(loud(s), "the sink is unmuted at 50 % or more while ringing: \(s)\n\(daemon.events)")
                try await Task.sleep(for: .milliseconds(500))
            }
            #expect(try await recorder.heardSound { try await Task.sleep(for: .seconds(1)) }, "still heard after the put-back ended")
            #expect(FileManager.default.fileExists(atPath: leftover), "the dead wake's levels wait for the next start")
            daemon.send(SIGTERM)
            let r = await daemon.wait(timeout: .seconds(30))
            #expect(r.exitCode == 0, "\(daemon.report(r))")

            // The next start puts them back, and says so.
            let next = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"], environment: env)
            #expect(next.stderr.contains("put back the mixer 'default' that wake (pid 999999) raised before it died: Master 10 %, muted"), "\(next)")
            let after = try await pa.sink("speaker")
            #expect(after.muted && after.volumes == [6553, 6553], "\(after)")
        }
    }
}
