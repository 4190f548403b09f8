import Synchronization
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
package final class AbandonedRestore: Sendable {
    package static let shared = AbandonedRestore()

    /// `box` is made when the restore is given up (or ends, whichever comes first) and holds what
    /// the restore said when it ended, until the loop takes it; nil before, or when no descriptor
    /// could be had (then the loop is not told, and the line is lost: nothing else is).
    private let state = Mutex<(abandoned: Bool, box: PostBox<[String]>?)>((false, nil))

    private init() {}

    /// The box, made on first need.
    private func box(abandoning: Bool) -> PostBox<[String]>? {
        state.withLock { s in
            if abandoning { s.abandoned = true }
            if s.box == nil { s.box = try? PostBox() }
            return s.box
        }
    }

    /// On the main thread, when the start gives the restore up.
    package func giveUp() { _ = box(abandoning: true) }

    /// On the restore's thread, when it ends after it was given up: what it said (empty when it
    /// changed nothing).
    package func ended(_ said: [String]) { box(abandoning: false)?.post(said) }

    /// The descriptor a loop watches while a given-up restore may still end; nil when none was given up.
    var descriptor: Int32? {
        state.withLock { $0.abandoned ? $0.box?.signal.fd : nil }
    }

    /// Once the given-up restore has ended: what it said, once (later calls, and calls before
    /// it ended, give nil). Empties the descriptor.
    func take() -> [String]? {
        state.withLock { $0.box }?.take().last
    }

    /// The one line that says it, `ringing`: whether a ring's guard looks again because of it.
    static func report(_ said: [String], ringing: Bool) -> String {
        let what = said.isEmpty ? "it changed nothing, and the saved levels wait for the next start of wake" : said.joined(separator: "; ")
        return "the put-back of mixer levels an earlier wake left raised, given up at start when the sound server did not answer, "
            + "has ended: \(what)" + (ringing ? "; the ring's mixer guard looks at the output again" : "")
    }
}
