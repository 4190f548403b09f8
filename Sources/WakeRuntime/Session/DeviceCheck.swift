import WakeCore
import WakeEngine
import WakeSystem

/// The arm-time check of the device: opened with the sound's format and closed again (never held
/// during the wait), on a thread of its own and for at most the stall limit, since an ALSA
/// plugin behind a hung sound server blocks whatever mode the PCM is opened in. A signal ends
/// the wait at once.
public enum DeviceCheck {
    struct Report {
        var summary: String
        /// What will keep the device from being heard though it opens (a sound server whose only
        /// sink is its dummy output): a warning now, a fallback at ring time.
        var problem: String?
        /// The device is a sound server's client (pulse, pipewire): the server's sink and stream
        /// restore decide what is heard.
        var serverBacked = false

        /// The warning line for `problem`.
        var warning: String? {
            problem.map { "warning: \($0); connect or enable an output ('pactl list sinks' shows what the server has); "
                + "until then, at ring time wake falls back to each sound card, then the terminal bell, "
                + "and keeps trying the server for as long as the ring lasts" }
        }
    }

    /// `signals`: the channel whose signals end the wait; nil off the loop's thread (the daemon's
    /// bedtime check), where the open is bounded by the stall limit alone: a thread that drained
    /// the loop's channel would take its signals from it.
    static func run(_ device: String, sound: SoundFile, dryRun: Bool, signals: SignalChannel?) throws(WakeFailure) -> Report {
        let format: PCM.SampleFormat = sound.width == .int16 ? .s16 : .s32
        let channels = sound.channels, rate = sound.sampleRate
        let outcome: BoundedCall.Outcome<Result<Report, ALSAError>>
        do {
            outcome = try BoundedCall.run(limit: Defaults.stallLimit, signals: signals) {
                Result { () throws(ALSAError) -> Report in
                    let r = try DeviceProbe.probe(device: device, format: format, channels: channels, rate: rate,
                                                  latency: Defaults.latency, serverLatency: Defaults.serverLatency,
                                                  sideEffectFree: dryRun)
                    return Report(summary: r.format + (r.isClockless ? ", no clock: paced by wake" : ""), problem: serverProblem(device, serverBacked: r.isServerBacked),
                                  serverBacked: r.isServerBacked)
                }
            }
        } catch {
            throw WakeFailure(.resource, "cannot check device '\(device.printable)': \(error); the system is short of a resource")
        }
        switch outcome {
        case .done(.success(let report)):
            return report
        case .done(.failure(let error)):
            if error.libraryMissing {
                throw WakeFailure(.unavailable, "cannot ring on device '\(device.printable)': \(error.message)")
            }
            if let why = SoundServerEnvironment.explainUnreachable(device: device) {
                throw WakeFailure(.unavailable, "cannot ring on device '\(device.printable)': \(error.message); \(why)")
            }
            throw WakeFailure(.unavailable, "cannot ring on device '\(device.printable)': \(error.message) (\(error.call)); see 'wake --list-devices'")
        case .timedOut:
            throw WakeFailure(.unavailable, "cannot ring on device '\(device.printable)': the device did not answer in \(Formatting.span(Defaults.stallLimit)) "
                + "(is its sound server hung?); try another with -D, see 'wake --list-devices'")
        case .interrupted(let signal):
            throw WakeFailure.interrupted(by: signal, during: "checking the device")
        }
    }

    /// On a sound server: a default sink that is the server's dummy output (it has no device).
    /// A server that cannot be asked is no problem here: the device opened.
    static func serverProblem(_ device: String, serverBacked: Bool) -> String? {
        guard SoundServerStream.isAskable(serverBacked: serverBacked, device: device), let sink = try? SoundServerStream.defaultSink(), sink.isDummyOutput else { return nil }
        return sink.dummyOutputProblem
    }
}
