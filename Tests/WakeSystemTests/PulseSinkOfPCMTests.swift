import Foundation
import Testing
@testable import WakeSystem

/// Issue 55, media.name: which ALSA PCMs wake replaces with its own named libpulse stream, read
/// from ALSA's own configuration (Debian's libasound2-plugins defines `pulse` with a DEVICE
/// argument). Only the pulse plugin qualifies, with the sink its definition names; any other PCM
/// stays on ALSA.
@Suite("System: the sink of a pulse-plugin PCM",
       .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/alsa/alsa.conf.d/50-pulseaudio.conf"),
                "needs libasound2-plugins (make deps-test)"))
struct PulseSinkOfPCMTests {
    @Test("pulse: the server's choice; pulse:SINK: that sink, in each of ALSA's spellings")
    func pulsePlugin() {
        #expect(SoundServerPlayback.pulseSink(ofPCM: "pulse") == "")
        #expect(SoundServerPlayback.pulseSink(ofPCM: "pulse:speaker") == "speaker")
        #expect(SoundServerPlayback.pulseSink(ofPCM: "pulse:'head phones'") == "head phones")
        #expect(SoundServerPlayback.pulseSink(ofPCM: "pulse:DEVICE=speaker") == "speaker")
    }

    @Test("any other PCM, or one ALSA does not know, stays on ALSA",
          arguments: ["null", "hw:0", "plughw:0,0", "dmix", "no-such-pcm", "file:'/tmp/x',raw", ""])
    func otherPCMs(device: String) {
        #expect(SoundServerPlayback.pulseSink(ofPCM: device) == nil)
    }
}
