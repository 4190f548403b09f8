import WakeCore
import WakeEngine
import WakeSystem

/// `wake test`'s eyes on its own ring, attached to the session like the notifier: it keeps what
/// the ring's events say (the devices opened and their formats, fallbacks, the bell, the mixer
/// guard's changes and problems, how the ring ended), watches wake's stream on the sound server
/// once a server's device opens (`SoundServerWatch`, on a thread of its own), and ends the test
/// at a snooze: a snooze would silence the alarm for minutes, so for a test it is an end.
///
/// It never touches the sound: the output's counters (`OutputMeter`) are read after the ring.
final class TestRecorder: RuntimeObserver, SessionAttachment {
    struct Fallback: Equatable {
        var from: String
        var to: String
        var reason: String
    }

    struct MixerChange: Equatable {
        var mixer: String
        var from: MixerReading
        var to: MixerReading
    }

    /// Each device opened, with the format the worker set up and whether wake paces it.
    private(set) var opened: [(device: String, format: String, paced: Bool)] = []
    private(set) var fallbacks: [Fallback] = []
    private(set) var bell = false
    /// Why the output went silent (no device, no bell), or failed for good.
    private(set) var silent: String?
    private(set) var soundFailed: String?
    private(set) var raised: [MixerChange] = []
    private(set) var restored: [(mixer: String, to: MixerReading, keptChanges: Bool)] = []
    private(set) var mixerProblems: [String] = []
    /// When the ring started and ended (the clocks as the runner read them).
    private(set) var ringStarted: ClockReading?
    private(set) var ended: ClockReading?
    private(set) var outcome: Outcome?
    private(set) var snoozed = false
    /// The watch on wake's stream, once a device of a sound server opened.
    private(set) var watch: SoundServerWatch?
    /// Why the stream could not be watched (no thread).
    private(set) var watchProblem: String?

    private unowned var session: SessionContext!
    private let wakeUp: EventSignal
    private var wakeUpRegistration: Reactor.Registration?
    private var stopPending = false
    /// Whether the device that opened last is a sound server's client (read from the meter).
    private let serverBacked: () -> Bool
    private let watchEvery: Duration

    /// `serverBacked`: whether the output's current device is a server's client, asked when a
    /// device opens. Throws when the descriptor that ends a snoozed test cannot be made.
    init(watchEvery: Duration, serverBacked: @escaping () -> Bool) throws(SystemCallError) {
        self.watchEvery = watchEvery
        self.serverBacked = serverBacked
        wakeUp = try EventSignal()
    }

    deinit { wakeUp.close() }

    func start(in session: SessionContext) {
        self.session = session
        session.runner.observe(with: self)
        // A snooze is ended from the loop, as a key would be, not from inside the runner's report of it.
        wakeUpRegistration = session.reactor.register(fd: wakeUp.fd) { [unowned self] _ in
            wakeUp.drain()
            guard stopPending else { return }
            stopPending = false
            session.runner.command(.stop, by: .control("the snooze (a snooze ends a test)"), activeOnly: true)
        }
    }

    func stop() {
        watch?.stop()
        if let wakeUpRegistration { session.reactor.unregister(wakeUpRegistration) }
        wakeUpRegistration = nil
    }

    func observe(_ event: RuntimeEvent) {
        switch event.kind {
        case .ringStarted:
            if ringStarted == nil { ringStarted = event.time }
        case .snoozed:
            snoozed = true
            stopPending = true
            _ = wakeUp.signal()
        case .finished(let outcome):
            self.outcome = outcome
            ended = event.time
            watch?.stop()
        case .sound(let output):
            sound(output)
        default:
            break
        }
    }

    private func sound(_ event: OutputEvent) {
        switch event {
        case .opened(let device, let format, let paced):
            opened.append((device, format, paced))
            if watch == nil, watchProblem == nil, serverBacked() {
                do { watch = try SoundServerWatch.start(every: watchEvery) } catch {
                    watchProblem = "cannot start the watch on the sound server (\(error))"
                }
            }
        case .fallback(let from, let to, let reason):
            fallbacks.append(Fallback(from: from, to: to, reason: reason))
        case .bell:
            bell = true
        case .silent(let reason, _):
            silent = reason
        case .failed(let reason):
            soundFailed = reason
        case .mixerRaised(let mixer, let from, let to):
            raised.append(MixerChange(mixer: mixer, from: from, to: to))
        case .mixerRestored(let mixer, let to, let kept):
            restored.append((mixer, to, kept))
        case .mixerProblem(let reason):
            mixerProblems.append(reason)
        case .entryFailed(let path, let next, let reason):
            fallbacks.append(Fallback(from: path, to: next, reason: reason))
        case .backFromBell, .backFromSilent, .sinkMoved, .audible, .recovered, .stopped, .silentStep, .stillSilent, .soundChosen,
             .builtInChosen:
            break
        }
    }
}
