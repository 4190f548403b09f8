import Testing
import WakeCore

/// A finding as the line the bedtime check's child prints and the daemon reads back (issue 51):
/// any text a check found passes unchanged, and nothing else on the pipe reads as a finding.
@Suite("Doctor finding as a line")
struct DoctorFindingLineTests {
    @Test("round trip: tabs, newlines and backslashes in what was found, no fix or a fix, none or several alarms")
    func roundTrip() {
        let findings = [
            DoctorFinding(.sound, "sound.sink", alarms: ["work", "nap"], .fail, "sink 'A\tB' is muted\nat 0 % \\ off",
                          fix: "unmute: pactl"),
            DoctorFinding(.notifications, "notifications.server", .warn, "no server"),
            DoctorFinding(.sound, "sound.file", alarms: ["x"], .pass, "", fix: ""),
        ]
        for f in findings {
            #expect(!f.line.contains("\n"))
            #expect(DoctorFinding(line: f.line) == f, "\(f.line)")
        }
    }

    @Test("a line that is not a finding (a library's chatter, the end mark) reads as none")
    func notFindings() {
        for line in ["", "end", "ALSA lib pcm.c:2666: Unknown PCM", "sound\tsound.sink\tMAYBE\t-\tx", "sound\tsound.sink\tFAIL\t*\tx",
                     "nowhere\tsound.sink\tFAIL\t-\tx", "sound\tsound.sink\tFAIL\t-"] {
            #expect(DoctorFinding(line: line) == nil, "\(line)")
        }
    }
}
