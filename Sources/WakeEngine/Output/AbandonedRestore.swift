import Glibc
import WakeSystem

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
    /// Made when the restore is given up (or ends, whichever comes first); nil before, or when no
    /// descriptor could be had (then the loop is not told, and the line is lost: nothing else is).
    private var signal: EventSignal?
    private var abandoned = false
    /// What the restore said when it ended, until the loop takes it.
    private var lines: [String]?

    private init() { pthread_mutex_init(&mutex, nil) }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }

    /// Under the mutex: the signal, made on first need.
    private func signalLocked() -> EventSignal? {
        if signal == nil { signal = try? EventSignal() }
        return signal
    }

    private func wakeLocked() { signalLocked()?.signal() }

    /// On the main thread, when the start gives the restore up.
    package func giveUp() {
        locked {
            abandoned = true
            _ = signalLocked()
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
        locked { abandoned ? signal?.fd : nil }
    }

    /// Once the given-up restore has ended: what it said, once (later calls, and calls before
    /// it ended, give nil). Empties the descriptor.
    func take() -> [String]? {
        locked {
            signal?.drain()
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
