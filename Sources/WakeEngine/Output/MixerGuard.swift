import Synchronization
import WakeCore
import WakeSystem

/// The mixer guard: a ring on a muted or turned-down output is unmuted and raised to the floor
/// (`--min-volume`), and put back exactly when its sound ends.
///
/// Where it runs, and why: on the output worker, right after its PCM opened and before the first
/// frame, and back on that worker when its sound ends (stop, snooze, failure, fallback). Mixer
/// calls reach the sound server just as PCM calls do (the pulse plugin's control blocks about
/// 30 s per call when the server hangs), so they must never run on the event loop; the worker
/// is already supervised (a stall abandons it) and owns the device's lifetime. Opening the
/// mixer there, at ring time, also binds it to the sink the sound goes to (the pulse plugin
/// looks up the default sink when opened), and a device that will not open never has its mixer
/// touched. The worker keeps the mixer open until it restores it, so the restore reaches the
/// sink it raised even if the default sink changed meanwhile.
///
/// Before anything is changed the old levels are saved (`MixerStateStore`: one file per
/// process); the file is removed once they are back. A worker abandoned while it holds a raised
/// mixer cannot be waited for: its entry stays in this ledger and in the file. The next worker
/// on the same mixer adopts it (keeps the original levels, restores them at its own end); an
/// abandoned worker that comes back to life restores only what it still owns; whatever is left
/// when wake dies (SIGKILL, a hung server until exit) is put back by the next wake to start.
///
/// The ledger's mutex guards only its bookkeeping and the file write, and only workers take it:
/// the event loop never does, so no mixer call can ever hold the loop up.
final class MixerLedger: Sendable {
    private struct Held {
        var entry: MixerSaveFile.Entry
        /// The worker that restores it; nil when nobody does any more (its restore failed).
        var owner: Int?
        var restoring = false
    }
    /// What the mutex guards: the entries not yet put back, in the order they were first saved.
    private struct Ledger {
        var entries: [String: Held] = [:]
        var order: [String] = []
    }
    private let state = Mutex(Ledger())
    private let path: String?
    private let owner: MixerSaveFile.Owner

    init(directory: String?) {
        path = directory.map { MixerStateStore.path(in: $0, pid: CurrentProcess.id) }
        owner = MixerStateStore.currentOwner()
    }

    private func locked<T: Sendable>(_ body: (inout Ledger) -> T) -> T {
        state.withLock { body(&$0) }
    }

    /// A mixer a worker raised (or adopted) and must put back.
    final class Token {
        let control: String
        let mixer: Mixer
        init(control: String, mixer: Mixer) { self.control = control; self.mixer = mixer }
    }

    /// On a worker whose PCM on `device` just opened: unmutes and raises the mixer behind it to
    /// `floor` percent when it is below. Returns what the worker must restore at its end.
    func raise(device: String, floor: Int, worker: Int, report: (WorkerReport) -> Void) -> Token? {
        guard let control = MixerPlan.control(forDevice: device) else { return nil }
        // An entry being put back by another worker (one that came back to life) is waited for,
        // briefly, so its original levels are not read as the user's.
        var adopted: MixerSaveFile.Entry?
        for _ in 0..<100 {
            let busy: Bool = locked { l in
                guard var held = l.entries[control] else { return false }
                if held.restoring { return true }
                held.owner = worker
                l.entries[control] = held
                adopted = held.entry
                return false
            }
            if !busy { break }
            SystemClock.sleep(for: .milliseconds(10))
        }
        let mixer: Mixer
        let before: MixerReading
        do {
            mixer = try Mixer(control: control)
            before = try mixer.read()
        } catch {
            if adopted != nil { locked { l in l.entries[control]?.owner = nil } }
            report(.mixerProblem("cannot read the mixer behind '\(device.printable)' (\(error)); ringing at the level it is at"))
            return nil
        }
        let token = Token(control: control, mixer: mixer)
        guard let target = MixerPlan.raised(before, floor: floor) else {
            // Loud enough already; an adopted entry is still this worker's to put back.
            return adopted == nil ? nil : token
        }
        let saved = adopted?.saved ?? before
        let entry = MixerSaveFile.Entry(mixer: control, saved: saved, applied: target)
        // Saved before anything changes: a crash from here on is put right by the next start.
        let saveError = locked { (l: inout Ledger) -> StoreError? in
            if l.entries[control] == nil { l.order.append(control) }
            l.entries[control] = Held(entry: entry, owner: worker)
            return writeFile(l)
        }
        if let saveError {
            report(.mixerProblem("cannot save the mixer levels before raising them (\(saveError)); if wake dies while ringing they stay raised"))
        }
        do {
            try mixer.write(target)
        } catch {
            // Whatever was written is put back at the end (only values still as wake set them).
            report(.mixerProblem("cannot raise the mixer behind '\(device.printable)' (\(error)); ringing at the level it is at"))
            return token
        }
        var after = before
        after.levels = target
        report(.mixerRaised(mixer: control, from: before, to: after))
        return token
    }

    /// On a ringing worker, asked to look again (a put-back given up at start ended while it
    /// rang): the mixer it holds (`token`, still open on the sink it raised) is read and raised
    /// back to the floor where it was brought down, the save file's first levels kept as the
    /// ones to put back. Without a token (the output was loud enough at the start) it is `raise`.
    func recheck(_ token: Token?, device: String, floor: Int, worker: Int, report: (WorkerReport) -> Void) -> Token? {
        guard let token else { return raise(device: device, floor: floor, worker: worker, report: report) }
        let before: MixerReading
        do { before = try token.mixer.read() } catch {
            report(.mixerProblem("cannot read the mixer '\(token.control.printable)' again (\(error)); ringing at the level it is at"))
            return token
        }
        guard let target = MixerPlan.raised(before, floor: floor) else { return token }
        let saveError = locked { (l: inout Ledger) -> StoreError? in
            var entry = l.entries[token.control]?.entry ?? MixerSaveFile.Entry(mixer: token.control, saved: before, applied: target)
            if l.entries[token.control] == nil { l.order.append(token.control) }
            // Another layout of channels than was saved: these levels are the ones to go back.
            if entry.saved.levels.volumes.count != target.volumes.count || entry.saved.levels.switches.count != target.switches.count {
                entry.saved = before
            }
            entry.applied = target
            l.entries[token.control] = Held(entry: entry, owner: worker)
            return writeFile(l)
        }
        if let saveError {
            report(.mixerProblem("cannot save the mixer levels before raising them again (\(saveError)); if wake dies while ringing they stay raised"))
        }
        do {
            try token.mixer.write(target)
        } catch {
            report(.mixerProblem("cannot raise the mixer '\(token.control.printable)' again (\(error)); ringing at the level it is at"))
            return token
        }
        var after = before
        after.levels = target
        report(.mixerRaised(mixer: token.control, from: before, to: after))
        return token
    }

    /// What a worker puts back of its stream and sink after the stream guard raised again
    /// (`again`, nil when nothing changed): the levels found first, with the latest levels set,
    /// so that the end of the ring compares with what is set now and puts back what was there.
    static func merged(_ first: SoundServerStream.Change?, _ again: SoundServerStream.Change?) -> SoundServerStream.Change? {
        guard let first else { return again }
        guard var out = again else { return first }
        if first.stream == out.stream, let applied = first.streamApplied {
            out.streamBefore = first.streamBefore
            out.streamApplied = out.streamApplied ?? applied
        }
        if first.sink == out.sink, let applied = first.sinkApplied {
            out.sinkBefore = first.sinkBefore
            out.sinkApplied = out.sinkApplied ?? applied
        }
        return out
    }

    /// On the worker that raised (or adopted) `token`'s mixer, when its sound ends: puts the
    /// saved levels back where they are still as wake set them, unless another worker has
    /// taken the entry over meanwhile.
    func restore(_ token: Token, worker: Int, report: (WorkerReport) -> Void) {
        defer { token.mixer.close() }
        let entry: MixerSaveFile.Entry? = locked { l in
            guard var held = l.entries[token.control], held.owner == worker else { return nil }
            held.restoring = true
            l.entries[token.control] = held
            return held.entry
        }
        guard let entry else { return }
        let outcome: MixerStateStore.RestoreOutcome
        do { outcome = try MixerStateStore.restore(entry, on: token.mixer) } catch { outcome = .failed(error) }
        let saveError = locked { (l: inout Ledger) -> StoreError? in
            if outcome.isLeftForLater {
                l.entries[token.control]?.restoring = false
                l.entries[token.control]?.owner = nil  // left for the next worker on it, or the next start
                return nil
            }
            l.entries[token.control] = nil
            l.order.removeAll { $0 == token.control }
            return writeFile(l)
        }
        switch outcome {
        case .restored(let reading, let kept):
            report(.mixerRestored(mixer: token.control, to: reading, keptChanges: kept))
        case .unchanged:
            report(.mixerProblem("the mixer '\(token.control.printable)' was changed while ringing; left as it is"))
        case .beyondReach(let why):
            report(.mixerProblem("cannot put the mixer '\(token.control.printable)' back: \(why)"))
        case .failed(let error):
            report(.mixerProblem("cannot put the mixer '\(token.control.printable)' back (\(error)); the next start of wake will"))
        case .stopped:
            break  // never asked to stop here
        }
        if let saveError { report(.mixerProblem("cannot update the saved mixer levels (\(saveError)); if wake dies now they may stay raised")) }
    }

    // MARK: the stream on a sound server

    /// On a worker whose PCM on a sound server's device just opened: unmutes and raises wake's own
    /// stream to `streamFloor` and the sink it plays on to `sinkFloor` (SoundServerStream; nil
    /// with `--mixer off`: the sink is the user's, and is only looked at, with a warning when it
    /// is muted or quiet). The sink's old levels go to the save file first (`pulse-sink:NAME`),
    /// and so do the stream's, under the key the server's stream restore remembers it by
    /// (`pulse-stream-restore:ID`): a crash is put right by the next start like a mixer, the
    /// stream's part in what the server remembers for the next one. An entry this process
    /// already holds keeps the levels it first saved: they are what goes back.
    /// Throws only when the stream plays into the server's dummy output (no device at all).
    func raiseStream(streamFloor: Int, sinkFloor: Int?, sinkLeft: SinkLeft = .mixerOff, worker: Int, report: (WorkerReport) -> Void)
        throws(SoundServerStream.Failure) -> SoundServerStream.Change? {
        do {
            let change = try SoundServerStream.raise(streamFloor: streamFloor, sinkFloor: sinkFloor) { change in
                var saving: [MixerSaveFile.Entry] = []
                if let applied = change.sinkApplied {
                    saving.append(MixerSaveFile.Entry(mixer: SoundServerStream.sinkPrefix + change.sink, saved: change.sinkBefore, applied: applied))
                }
                if let applied = change.streamApplied, !change.restoreID.isEmpty {
                    saving.append(MixerSaveFile.Entry(mixer: SoundServerStream.restorePrefix + change.restoreID, saved: change.streamBefore,
                                                      applied: applied))
                }
                saving.removeAll { !MixerSaveFile.storable($0.mixer) }
                guard !saving.isEmpty else { return }
                let saveError = locked { (l: inout Ledger) -> StoreError? in
                    for var entry in saving {
                        if let held = l.entries[entry.mixer] {
                            let first = held.entry.saved.levels
                            if first.volumes.count == entry.applied.volumes.count && first.switches.count == entry.applied.switches.count {
                                entry.saved = held.entry.saved
                            }
                        } else {
                            l.order.append(entry.mixer)
                        }
                        l.entries[entry.mixer] = Held(entry: entry, owner: worker)
                    }
                    return writeFile(l)
                }
                if let saveError {
                    report(.mixerProblem("cannot save the sink's levels before raising them (\(saveError)); if wake dies while ringing they stay raised"))
                }
            }
            if sinkFloor == nil, let note = sinkLeft.note(change) { report(.mixerProblem(note)) }
            guard change.streamApplied != nil || change.sinkApplied != nil else { return nil }
            if let applied = change.streamApplied {
                var after = change.streamBefore
                after.levels = applied
                report(.mixerRaised(mixer: SoundServerStream.streamControl, from: change.streamBefore, to: after))
            }
            if let applied = change.sinkApplied {
                var after = change.sinkBefore
                after.levels = applied
                report(.mixerRaised(mixer: SoundServerStream.sinkPrefix + change.sink, from: change.sinkBefore, to: after))
            }
            return change
        } catch {
            if error.isDummyOutput { throw error }
            report(.mixerProblem("cannot check wake's stream on the sound server (\(error)); ringing at the level it is at"))
            return nil
        }
    }

    /// Why `raiseStream` only looks at the sink: `--mixer off`, or a quiet `wake test`, which
    /// leaves the user's levels as they are and says what the alarm's guard (`alarmFloor`, nil
    /// with `--mixer off`) will do about them.
    enum SinkLeft: Sendable {
        case mixerOff
        case quietTest(alarmFloor: Int?)

        /// The warning for a sink found muted or below the floor it is judged by; nil when it is not.
        func note(_ change: SoundServerStream.Change) -> String? {
            let sink = change.sinkBefore
            let floor: Int
            if case .quietTest(let f?) = self { floor = f } else { floor = Defaults.minVolume }
            guard sink.isQuiet(floor: floor) else { return nil }
            let found = "the sink '\(change.sink.printable)' wake plays on is \(sink.levels.isMuted ? "muted" : "turned down") (\(sink.volumeSummary))"
            switch self {
            case .mixerOff:
                return found + " and --mixer off leaves it so: the alarm may not be heard; unmute or raise it, "
                    + "or let wake do it at ring time (--mixer auto)"
            case .quietTest(let floor?):
                return found + " and this quiet test leaves it so, so it may not be heard now; at the alarm the mixer guard "
                    + (sink.levels.isMuted ? "unmutes it and raises it to at least \(floor) %" : "raises it to \(floor) %")
                    + " ('wake test --full' does that now)"
            case .quietTest(nil):
                return found + " and --mixer off leaves it so at the alarm too: the alarm may not be heard; unmute or raise it, "
                    + "or let wake do it at ring time (--mixer auto)"
            }
        }
    }

    /// Puts back what `raiseStream` changed, before the PCM closes (the stream goes with it).
    func restoreStream(_ change: SoundServerStream.Change, worker: Int, report: (WorkerReport) -> Void) {
        let control = SoundServerStream.sinkPrefix + change.sink
        let remembered = SoundServerStream.restorePrefix + change.restoreID
        let ownsSink = change.sinkApplied != nil && locked { l in l.entries[control]?.owner == worker }
        var mine = change
        if !ownsSink { mine.sinkApplied = nil }
        do {
            let r = try SoundServerStream.restore(mine)
            if let (reading, kept) = r.stream { report(.mixerRestored(mixer: SoundServerStream.streamControl, to: reading, keptChanges: kept)) }
            if let (reading, kept) = r.sink { report(.mixerRestored(mixer: control, to: reading, keptChanges: kept)) }
            // The stream put back while it lives: the server remembers that, so its entry goes too.
            var done = ownsSink ? [control] : []
            if r.stream != nil && locked({ l in l.entries[remembered]?.owner == worker }) { done.append(remembered) }
            if !done.isEmpty {
                let saveError = locked { (l: inout Ledger) -> StoreError? in
                    for key in done { l.entries[key] = nil }
                    l.order.removeAll { done.contains($0) }
                    return writeFile(l)
                }
                if let saveError { report(.mixerProblem("cannot update the saved mixer levels (\(saveError)); if wake dies now they may stay raised")) }
            }
        } catch {
            if ownsSink { locked { l in l.entries[control]?.owner = nil } }
            report(.mixerProblem("cannot put wake's stream or its sink back (\(error)); the next start of wake puts the sink back"))
        }
    }

    /// Under the mutex: the file holds exactly the entries not yet put back.
    private func writeFile(_ l: Ledger) -> StoreError? {
        guard let path else { return StoreError(path: "", reason: "neither XDG_STATE_HOME nor HOME is set to an absolute path") }
        if l.entries.isEmpty {
            MixerStateStore.remove(path)
            return nil
        }
        let file = MixerSaveFile(owner: owner, server: MixerStateStore.serverIdentity(),
                                 entries: l.order.compactMap { l.entries[$0]?.entry })
        do { try MixerStateStore.write(file, to: path) } catch { return error }
        return nil
    }
}
