import WakeCore
import WakeEngine
import WakeSystem

/// When the session gives the code a finished phase ran back to the page cache (`ResidentCode`
/// says why): once a ring is audible. What parsed the command line, checked the sound and the
/// device, opened the device and started the ring need not stay resident for the rest of it;
/// the ring maps back what it runs. The session does it before its next poll, once however many
/// rings started.
///
/// Not before the night's wait, though a waiting wake would then hold 5 MB instead of 13: the
/// code the deadline runs must stay mapped until then, since a page cache dropped in the last
/// second (after the pre-roll, which reads the ring's own code ahead and maps what it runs)
/// would leave the rest of it on the disk. Measured 2026-11-27, rings on `null` with a release
/// before the wait: the first frame 2-9 ms after the deadline with the cache dropped 0.4 s
/// before it, against 0.3-1.3 ms without that release.
final class CodeReleasePolicy: RuntimeObserver {
    private var due = false

    func observe(_ event: RuntimeEvent) {
        if case .ringing = event.kind { due = true }
    }

    func releaseIfDue() {
        guard due else { return }
        due = false
        ResidentCode.release()
    }
}
