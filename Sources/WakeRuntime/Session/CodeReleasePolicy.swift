import WakeCore
import WakeEngine
import WakeSystem

/// When the session gives back what a finished phase left resident (`ResidentCode` says why):
/// the code it ran, and the heap's free pages. Twice: once a ring is audible, before the next
/// poll (what parsed, checked and opened the device need not stay resident for the rest of it;
/// the ring maps back what it runs); and once the alarms are armed and the session has been
/// quiet for `quiet`, last before the poll, after a start and after every reload of the daemon (what parsed the files,
/// checked the alarms and answered the `wake add` that asked need not stay resident for a
/// night: a waiting daemon with 20 alarms held 11 MB instead of 5). Once however many alarms
/// were armed or rings started; the quiet costs one wake-up after a reload, none while waiting.
///
/// The wait's release leaves the deadline's code on the disk as far as the page cache goes, so
/// the pre-roll, a second before the deadline, maps it back (`HotText.mapBack`): mapped pages
/// stay cached even when the page cache is dropped in that last second, which a release before
/// the wait without it paid with the first frame 2-9 ms late (2026-11-27; 0.3-1.3 ms without
/// that release). Hence no wait's release once a deadline is prepared, nor after an arming for a
/// deadline too near for its pre-roll: what the deadline runs then stays mapped.
final class CodeReleasePolicy: RuntimeObserver {
    /// How long nothing must happen before the wait's release.
    static let quiet: Duration = .seconds(1)

    private var ringDue = false
    private var waitDue = false
    /// When the quiet began: the first poll after the last arming or reload.
    private var quietSince: ContinuousClock.Instant?
    /// An alarm was armed for a deadline within twice the pre-roll: the wait's release is skipped.
    private var near = false
    private let release: () -> Void

    init(release: @escaping () -> Void = { ResidentCode.release(); ResidentCode.trimHeap() }) {
        self.release = release
    }

    func observe(_ event: RuntimeEvent) {
        switch event.kind {
        case .ringing:
            ringDue = true
            (waitDue, near, quietSince) = (false, false, nil)
        case .armed(let wait, _):
            (waitDue, quietSince) = (true, nil)
            if wait.remaining(from: event.time) <= Defaults.preroll * 2 { near = true }
        default:
            break
        }
    }

    /// A reload read the files (whether or not it armed anything).
    func requestRelease() { (waitDue, quietSince) = (true, nil) }

    /// Before each poll: the ring's release.
    func releaseIfRinging() {
        guard ringDue else { return }
        ringDue = false
        release()
    }

    /// Asked last before each poll (after the hooks, so a reload they ran counts): the poll's
    /// timeout while the wait's release waits for its quiet, nil when none is due. Once the
    /// quiet has lasted, releases here, so that nothing but the poll runs after it (the loop's
    /// own code, run after a release, had mapped 3 MB back in 64 KB windows). `prerolled`: a
    /// deadline is prepared, its code mapped back; the ring releases instead.
    func beforeWait(now: ContinuousClock.Instant, prerolled: Bool) -> Duration? {
        guard waitDue else { return nil }
        guard let since = quietSince else {
            quietSince = now
            return Self.quiet
        }
        guard now - since >= Self.quiet else { return since + Self.quiet - now }
        let skip = prerolled || near
        (waitDue, near, quietSince) = (false, false, nil)
        if !skip { release() }
        return nil
    }
}
