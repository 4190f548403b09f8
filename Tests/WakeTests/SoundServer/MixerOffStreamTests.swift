import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 37 (9), apart from "Own the stream" so that the two serialized suites, each a minute or
/// more of sound servers, run side by side rather than one after the other.
@Suite("--mixer off still owns the stream", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct MixerOffStreamTests {
    /// Issue 37 (9): with `--mixer off` a stream the server remembered as muted rang silently
    /// (exit 4, "rang"). The stream is wake's own, so its guard stays on: the stream is unmuted
    /// and raised, the sink (everyone's) is left as it is, and both go back as they were.
    @Test("--mixer off: a stream the server remembers as muted at 5 % is still heard; the sink is left alone", arguments: ["PulseAudio", "PipeWire"])
    func mixerOffRememberedMute(server: String) async throws {
        if server == "PipeWire" {
            guard PipeWireServer.isAvailable else { return }
            try await PipeWireServer.with { try await rememberedMuteWithMixerOff(on: $0) }
        } else {
            try await PulseAudioServer.with(desktop: true) { try await rememberedMuteWithMixerOff(on: $0) }
        }
    }

}
