import WakeCore
import WakeEngine
import WakeSystem

/// The mixer guard's work outside the ring, each piece bounded (a mixer behind a hung sound
/// server blocks about 30 s per call): what the dry run and the armed line say about the mixer
/// (read only, never changed), and, at every start, putting back what a dead wake left raised.
public enum MixerCheck {
    /// What is said about the mixer when the alarm is set.
    struct Report {
        /// The dry run's line, after "mixer: ".
        var text: String
        /// Worth saying under the armed line too: the output is muted or below the floor, or
        /// the mixer cannot be read.
        var notable: Bool
        /// The levels read, when there is a mixer and it answered.
        var reading: MixerReading?
    }

    /// `signals`: the channel whose signals end the wait; nil off the loop's thread (the daemon's
    /// bedtime check), where the read is bounded by the stall limit alone.
    static func run(device: String, policy: MixerPolicy, signals: SignalChannel?) throws(WakeFailure) -> Report {
        guard let control = MixerPlan.control(forDevice: device) else {
            return Report(text: policy == .off ? "left alone: --mixer off" : "none known for '\(device.printable)': left alone", notable: false)
        }
        let outcome: BoundedCall.Outcome<Result<MixerReading, ALSAError>>
        do {
            outcome = try BoundedCall.run(limit: Defaults.stallLimit, signals: signals) {
                Result { () throws(ALSAError) -> MixerReading in
                    let mixer = try Mixer(control: control)
                    defer { mixer.close() }
                    return try mixer.read()
                }
            }
        } catch {
            return Report(text: "cannot be read now (\(error)); the alarm rings anyway", notable: true)
        }
        switch outcome {
        case .done(.success(let reading)):
            let text = MixerPlan.describe(reading, policy: policy)
            let quiet = reading.isQuiet(floor: policy.floor ?? Defaults.minVolume)
            // The stream guard stays on with --mixer off (wake's own stream, nobody else's), so
            // only the output itself can keep the alarm from being heard.
            let stream = policy == .off && (control == "default" || control == "pulse")
                ? " (on a sound server, wake's own stream is still unmuted and raised to \(Defaults.minVolume) % while ringing)" : ""
            return Report(text: text + stream + (policy == .off && quiet ? "; the alarm may not be heard" : ""), notable: quiet,
                          reading: reading)
        case .done(.failure(let error)):
            return Report(text: "cannot read the mixer '\(control.printable)' (\(error.message)); the alarm rings at whatever level it has",
                          notable: true)
        case .timedOut:
            return Report(text: "the mixer '\(control.printable)' did not answer in \(Formatting.span(Defaults.stallLimit)); the alarm rings anyway",
                          notable: true)
        case .interrupted(let signal):
            throw WakeFailure.interrupted(by: signal, during: "checking the mixer")
        }
    }

    /// At the start of every wake command: levels a wake that died mid-ring left raised are put
    /// back (`MixerStateStore.restoreLeftovers`), once, each said in one line on stderr. Costs one
    /// directory read when there is nothing to do. Bounded: a hung sound server holds the start
    /// up for at most the stall limit, and the file then waits for the next start. Signals are
    /// not read here (they stay queued for the command itself).
    ///
    /// A restore given up is not stopped (its thread is stuck inside the server's client
    /// library): it is told, and changes nothing more once the server answers, since by then
    /// this process may be ringing. Its end is posted to `AbandonedRestore` for the loop, as a
    /// change it had already sent to a frozen server lands when that server thaws.
    public static func restoreLeftovers() {
        guard let directory = MixerStateStore.directory(), MixerStateStore.hasLeftovers(in: directory) else { return }
        let console = Console(quiet: false)
        let outcome: BoundedCall.Outcome<[String]>
        do {
            outcome = try BoundedCall.run(limit: Defaults.stallLimit, signals: nil,
                                          lateFinish: { AbandonedRestore.shared.ended($0) }) { isAbandoned in
                MixerStateStore.restoreLeftovers(in: directory, shouldStop: isAbandoned)
            }
        } catch {
            return console.error("warning: cannot put back the mixer levels an earlier wake left raised: \(error); the next start of wake tries again")
        }
        switch outcome {
        case .done(let lines):
            for line in lines { console.error(line) }
        case .interrupted:
            AbandonedRestore.shared.giveUp()
        case .timedOut:
            AbandonedRestore.shared.giveUp()
            console.error("warning: the mixer an earlier wake left raised did not answer in \(Formatting.span(Defaults.stallLimit)); "
                          + "nothing more is changed now, and the next start of wake tries again")
        }
    }
}
