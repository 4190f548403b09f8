import Glibc
import WakeCore

/// Where a ringing wake saves the mixer levels it changed, and how the next wake to start puts
/// them back when the one that saved them died mid-ring (SIGKILL, a crash, a power cut).
///
/// One file per process, `$XDG_STATE_HOME/wake/mixer-PID.state` (0600 in a 0700 directory,
/// written atomically; the format is `MixerSaveFile`'s), present only while levels are raised.
/// A file is restored by another wake only once its owner is gone: the owner is the process ID
/// with its start time and the boot ID, so a reused ID is not mistaken for it. Restoring is
/// done under a lock (`mixer.lock`), so two wakes starting together restore it once.
public enum MixerStateStore {
    /// `<stateHome>/wake`, or nil without an absolute XDG_STATE_HOME or HOME.
    public static func directory(environment: [String: String]? = nil) -> String? {
        XDGPaths.stateHome(environment: environment).map { $0 + "/wake" }
    }

    public static func path(in directory: String, pid: Int32) -> String { "\(directory)/mixer-\(pid).state" }

    // MARK: who owns a file

    /// This process, as a file's owner.
    public static func currentOwner() -> MixerSaveFile.Owner {
        let pid = getpid()
        return MixerSaveFile.Owner(pid: pid, startTicks: startTicks(of: pid) ?? 0, bootID: bootID() ?? "unknown")
    }

    /// Field 22 of /proc/PID/stat: when the process started, in clock ticks since boot.
    public static func startTicks(of pid: Int32) -> UInt64? {
        guard let bytes = try? RegularFile.readAll("/proc/\(pid)/stat", limit: 4096),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After the command name (which may hold spaces and parentheses): field 3 onwards.
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19 else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }

    static func bootID() -> String? {
        guard let bytes = try? RegularFile.readAll("/proc/sys/kernel/random/boot_id", limit: 128) else { return nil }
        let s = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        return s.isEmpty ? nil : s
    }

    /// True while the process that wrote `owner` still runs.
    public static func isAlive(_ owner: MixerSaveFile.Owner) -> Bool {
        guard owner.bootID == bootID() else { return false }
        guard let ticks = startTicks(of: owner.pid) else { return false }
        return ticks == owner.startTicks
    }

    /// The sound server the levels belong to: `PULSE_SERVER`, else `XDG_RUNTIME_DIR` (set by
    /// `SoundServerEnvironment.prepare` when it can be), else empty.
    public static func serverIdentity() -> String {
        for name in ["PULSE_SERVER", "XDG_RUNTIME_DIR"] {
            if let v = getenv(name).map({ String(cString: $0) }), !v.isEmpty, MixerSaveFile.storable(v) { return v }
        }
        return ""
    }

    /// True when a server identity names a socket or directory that no longer exists: that
    /// session is over, and its levels with it.
    static func serverGone(_ identity: String) -> Bool {
        let path = identity.hasPrefix("unix:") ? String(identity.dropFirst(5)) : identity
        guard path.hasPrefix("/") else { return false }
        return access(path, F_OK) != 0
    }

    // MARK: files

    /// Writes `file` to `path` (atomically, 0600), creating the directory 0700.
    public static func write(_ file: MixerSaveFile, to path: String) throws(StoreError) {
        try writeStateFile(file.serialize(), to: path)
    }

    /// A state file of the state home's wake directory (the mixer's, the light's): written
    /// atomically, 0600, its directory made 0700.
    static func writeStateFile(_ text: String, to path: String) throws(StoreError) {
        try AlarmStore.ensureDirectory(AtomicFile.split(path).directory)
        do {
            try AtomicFile.write(text, to: path, mode: 0o600)
        } catch {
            throw StoreError(path: path, reason: "cannot write it (\(error))")
        }
    }

    public static func remove(_ path: String) { unlink(path) }

    /// The `mixer-*.state` files in `directory`.
    static func files(in directory: String) -> [String] {
        let out = DirectoryListing.names(in: directory).filter { $0.hasPrefix("mixer-") && $0.hasSuffix(".state") }.map { directory + "/" + $0 }
        return out.sorted()
    }

    /// Whether any file needs the restore: a dead owner on this (or a vanished) server, or a file
    /// to report. Cheap enough for every start: a directory read, and a read of each file there.
    public static func hasLeftovers(in directory: String) -> Bool {
        // Read without the lock and without touching a mixer, so a command run while another
        // wake rings with its mixer raised (a `wake stop`) starts no thread and takes no lock.
        files(in: directory).contains { path in
            guard let text = try? AtomicFile.read(path, check: AlarmStore.checkFile(path)) else { return true }  // to report
            guard let saved = try? MixerSaveFile.parse(text) else { return true }  // to move aside
            return !isAlive(saved.owner) && (saved.server == serverIdentity() || serverGone(saved.server))
        }
    }

    // MARK: restoring after a death

    /// Puts back what dead wakes left raised in `directory`, each file once; returns one line per
    /// thing worth saying. Never throws, never traps: a corrupt file is reported and moved aside
    /// (`.corrupt`), a mixer that cannot be opened leaves its file for the next start. Blocking
    /// (a hung sound server): call it inside a bounded call, and pass `shouldStop`, asked before
    /// every change: once the call is given up it must change nothing more (the start went on
    /// and may be ringing by the time a hung server answers), so the rest is left in the files
    /// for the next start.
    public static func restoreLeftovers(in directory: String, shouldStop: () -> Bool = { false }) -> [String] {
        let candidates = files(in: directory)
        guard !candidates.isEmpty else { return [] }
        do { try AlarmStore.checkDirectory(directory) } catch {
            return ["mixer levels left by an earlier wake not restored: \(error); the next start of wake tries again"]
        }
        let lock: FileLock
        do { lock = try FileLock(path: directory + "/mixer.lock", timeout: .seconds(2)) } catch {
            return ["mixer levels left by an earlier wake not restored: \(error); the next start of wake tries again"]
        }
        defer { withExtendedLifetime(lock) {} }
        let me = getpid()
        var lines: [String] = []
        for path in files(in: directory) where path != self.path(in: directory, pid: me) {
            if shouldStop() { break }
            let text: String?
            do { text = try AtomicFile.read(path, check: AlarmStore.checkFile(path)) } catch {
                if error.isCorrupt {
                    rename(path, path + ".corrupt")
                    lines.append("ignored the saved mixer levels \(error); moved aside to '\(path.printable).corrupt'")
                } else {
                    lines.append("cannot read the saved mixer levels \(error); fix its permissions (chmod 600) or remove it")
                }
                continue
            }
            guard let text else { continue }  // restored by another wake meanwhile
            let saved: MixerSaveFile
            do { saved = try MixerSaveFile.parse(text) } catch {
                rename(path, path + ".corrupt")
                lines.append("ignored the saved mixer levels in '\(path.printable)' (\(error)); moved aside to '\(path.printable).corrupt'")
                continue
            }
            if isAlive(saved.owner) { continue }  // still ringing: it restores its own
            if saved.server != serverIdentity() {
                if serverGone(saved.server) {
                    remove(path)
                    lines.append("discarded the mixer levels wake (pid \(saved.owner.pid)) left raised: their sound server '\(saved.server.printable)' is gone")
                }
                continue  // another session's server: left for a wake started there
            }
            var remaining: [MixerSaveFile.Entry] = []
            var stopped = false
            for entry in saved.entries {
                if stopped {
                    remaining.append(entry)
                    continue
                }
                switch restore(entry, shouldStop: shouldStop) {
                case .stopped:
                    stopped = true
                    remaining.append(entry)
                case .restored(let reading, let kept):
                    lines.append("put back the mixer '\(entry.mixer.printable)' that wake (pid \(saved.owner.pid)) raised before it died: "
                                 + reading.summary + (kept ? " (what was changed since is kept)" : ""))
                case .unchanged:
                    lines.append("the mixer '\(entry.mixer.printable)' that wake (pid \(saved.owner.pid)) raised was changed since; left as it is")
                case .beyondReach(let why):
                    lines.append("the mixer '\(entry.mixer.printable)' that wake (pid \(saved.owner.pid)) raised cannot be put back: \(why)")
                case .failed(let error):
                    remaining.append(entry)
                    lines.append("cannot put back the mixer '\(entry.mixer.printable)' that wake (pid \(saved.owner.pid)) raised: \(error); trying again at the next start")
                }
            }
            if remaining.isEmpty {
                remove(path)
            } else if remaining != saved.entries {
                var rest = saved
                rest.entries = remaining
                try? write(rest, to: path)
            }
            if stopped { break }
        }
        return lines
    }

    public enum RestoreOutcome {
        /// Not done: the caller stopped waiting before this change (`shouldStop`); left for the next start.
        case stopped
        /// Put back; `kept`: some channel someone changed meanwhile was left as they set it.
        case restored(MixerReading, kept: Bool)
        /// Nothing of it was still as wake set it.
        case unchanged
        /// It cannot be known or put back, and trying again would not help (why, in words).
        case beyondReach(String)
        case failed(ALSAError)

        /// Still to be put back, by whoever tries next.
        public var isLeftForLater: Bool {
            switch self {
            case .failed, .stopped: return true
            case .restored, .unchanged, .beyondReach: return false
            }
        }
    }

    /// Puts one saved entry back on a freshly opened mixer (where its values are still wake's);
    /// `shouldStop` is asked right before the change.
    public static func restore(_ entry: MixerSaveFile.Entry, shouldStop: () -> Bool = { false }) -> RestoreOutcome {
        if entry.mixer.hasPrefix(SoundServerStream.sinkPrefix) { return SoundServerStream.restoreSaved(entry, shouldStop: shouldStop) }
        if entry.mixer.hasPrefix(SoundServerStream.restorePrefix) { return SoundServerStream.restoreSavedStream(entry, shouldStop: shouldStop) }
        do {
            let mixer = try Mixer(control: entry.mixer, elements: [entry.saved.element])
            defer { mixer.close() }
            return try restore(entry, on: mixer, shouldStop: shouldStop)
        } catch {
            return .failed(error)
        }
    }

    /// Puts one saved entry back on `mixer`.
    public static func restore(_ entry: MixerSaveFile.Entry, on mixer: Mixer, shouldStop: () -> Bool = { false }) throws(ALSAError) -> RestoreOutcome {
        let current = try mixer.read()
        // The levels were saved in the element's own range; in another they would mean something
        // else (the file was edited, or another card now has the name): never set.
        guard current.range == entry.saved.range else {
            return .beyondReach("its saved volume range \(entry.saved.range.lowerBound) to \(entry.saved.range.upperBound) is not the "
                + "element's \(current.range.lowerBound) to \(current.range.upperBound), so its levels are not set")
        }
        let (levels, kept) = MixerPlan.restored(saved: entry.saved.levels, applied: entry.applied, current: current.levels)
        if levels == current.levels { return kept ? .unchanged : .restored(current, kept: false) }
        if shouldStop() { return .stopped }
        try mixer.write(levels)
        var reading = current
        reading.levels = levels
        return .restored(reading, kept: kept)
    }
}
