import CLinux
import Glibc

/// The put-back of a dead wake's mixer levels that this process's start gave up waiting for
/// (`MixerCheck.restoreLeftovers`: its sound server did not answer within the stall limit), and
/// which may still end, on its own thread, minutes later, when the server thaws.
///
/// Why the loop must hear of it: the put-back changes nothing once given up (it asks before each
/// change), but a change it had already sent to a frozen server lands when that server thaws,
/// which may be in the middle of a ring of this very process, muting the sink the ring's mixer
/// guard raised. So its end is posted here, an eventfd wakes the loop, and the sound output
/// (SupervisedOutput) says what happened in one line and has the ringing worker look at its
/// mixer and stream again.
///
/// One per process: the restore runs once, at the start, before any session or loop exists.
package final class AbandonedRestore: @unchecked Sendable {
    package static let shared = AbandonedRestore()

    private var mutex = pthread_mutex_t()
    /// Made when the restore is given up (or ends, whichever comes first); -1 before, or when no
    /// descriptor could be had (then the loop is not told, and the line is lost: nothing else is).
    private var fd: Int32 = -1
    private var abandoned = false
    /// What the restore said when it ended, until the loop takes it.
    private var lines: [String]?

    private init() { pthread_mutex_init(&mutex, nil) }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }

    /// Under the mutex: the descriptor, made on first need.
    private func descriptorLocked() -> Int32 {
        if fd < 0 { fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
        return fd
    }

    private func wakeLocked() {
        var one: UInt64 = 1
        let d = descriptorLocked()
        if d >= 0 { _ = write(d, &one, 8) }
    }

    /// On the main thread, when the start gives the restore up.
    package func giveUp() {
        locked {
            abandoned = true
            _ = descriptorLocked()
            if lines != nil { wakeLocked() }  // it ended while being given up
        }
    }

    /// On the restore's thread, when it ends after it was given up: what it said (empty when it
    /// changed nothing).
    package func ended(_ said: [String]) {
        locked {
            lines = said
            wakeLocked()
        }
    }

    /// The descriptor a loop watches while a given-up restore may still end; nil when none was given up.
    var descriptor: Int32? {
        locked { abandoned && fd >= 0 ? fd : nil }
    }

    /// Once the given-up restore has ended: what it said, once (later calls, and calls before
    /// it ended, give nil). Empties the descriptor.
    func take() -> [String]? {
        locked {
            var count: UInt64 = 0
            if fd >= 0 { _ = read(fd, &count, 8) }
            defer { lines = nil }
            return lines
        }
    }

    /// The one line that says it, `ringing`: whether a ring's guard looks again because of it.
    static func report(_ said: [String], ringing: Bool) -> String {
        let what = said.isEmpty ? "it changed nothing, and the saved levels wait for the next start of wake" : said.joined(separator: "; ")
        return "the put-back of mixer levels an earlier wake left raised, given up at start when the sound server did not answer, "
            + "has ended: \(what)" + (ringing ? "; the ring's mixer guard looks at the output again" : "")
    }
}
