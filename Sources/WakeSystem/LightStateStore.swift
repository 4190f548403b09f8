import Glibc
import WakeCore

/// Where a lit alarm saves the backlight level it changed, and how the next wake to start puts
/// it back when the one that saved it died mid-ring: as `MixerStateStore` does for the mixer,
/// one file per process (`light-PID.state`, 0600, in the same 0700 directory), present only
/// while the light is wake's, restored by another wake only once its owner is gone.
public enum LightStateStore {
    public static func path(in directory: String, pid: Int32) -> String { "\(directory)/light-\(pid).state" }

    /// Writes `file` to `path` (atomically, 0600), creating the directory 0700.
    public static func write(_ file: LightSaveFile, to path: String) throws(StoreError) {
        try MixerStateStore.writeStateFile(file.serialize(), to: path)
    }

    public static func remove(_ path: String) { MixerStateStore.remove(path) }

    static func files(in directory: String) -> [String] {
        DirectoryListing.names(in: directory).filter { $0.hasPrefix("light-") && $0.hasSuffix(".state") }.sorted()
            .map { directory + "/" + $0 }
    }

    /// The outcome of putting one device back.
    public enum Restored: Equatable {
        /// Set to the level it had (`level` of `highest`).
        case restored(level: Int, highest: Int)
        /// It cannot be, and trying again would not help: the device is gone or another (why).
        case beyondReach(String)
        /// logind refused or could not be asked (why): left for the next try.
        case failed(String)
    }

    /// Puts `file`'s device back to its saved level, through the seat's session.
    public static func restore(_ file: LightSaveFile, timeout: Duration = .seconds(2)) -> Restored {
        guard let device = Backlight.all().first(where: { $0.name == file.device }) else {
            return .beyondReach("the device is no longer listed under \(Backlight.directory)")
        }
        guard device.highest == file.highest else {
            return .beyondReach("its range is now 0 to \(device.highest), not the saved 0 to \(file.highest)")
        }
        if device.brightness() == file.saved { return .restored(level: file.saved, highest: file.highest) }
        let session: String
        switch SessionBrightness.seatSession(timeout: timeout) {
        case .failure(let why): return .failed(why.description)
        case .success(let path): session = path
        }
        if case .failure(let e) = SessionBrightness.set(device, to: file.saved, session: session, timeout: timeout) {
            return .failed(e.description)
        }
        return .restored(level: file.saved, highest: file.highest)
    }

    /// Puts back what dead wakes left lit in `directory`; one line for each thing worth saying.
    /// Never throws or traps: a corrupt file is moved aside (`.corrupt`), one logind cannot set
    /// now waits for the next start. Cheap when there is nothing: a directory read.
    public static func restoreLeftovers(in directory: String) -> [String] {
        let me = path(in: directory, pid: getpid())
        var lines: [String] = []
        for path in files(in: directory) where path != me {
            let text: String?
            do { text = try AtomicFile.read(path, check: AlarmStore.checkFile(path)) } catch {
                lines.append("cannot read the saved backlight \(error); fix its permissions (chmod 600) or remove it")
                continue
            }
            guard let text else { continue }  // put back by another wake meanwhile
            let saved: LightSaveFile
            do { saved = try LightSaveFile.parse(text) } catch {
                rename(path, path + ".corrupt")
                lines.append("ignored the saved backlight in '\(path.printable)' (\(error)); moved aside to '\(path.printable).corrupt'")
                continue
            }
            if MixerStateStore.isAlive(saved.owner) { continue }  // still lit: it puts back its own
            let name = saved.device.printable
            switch restore(saved) {
            case .restored(let level, let highest):
                unlink(path)
                lines.append("put back the backlight '\(name)' that wake (pid \(saved.owner.pid)) lit before it died: "
                             + "\(level) of \(highest)")
            case .beyondReach(let why):
                unlink(path)
                lines.append("the backlight '\(name)' that wake (pid \(saved.owner.pid)) lit cannot be put back: \(why)")
            case .failed(let why):
                lines.append("cannot put back the backlight '\(name)' that wake (pid \(saved.owner.pid)) lit: \(why); "
                             + "trying again at the next start")
            }
        }
        return lines
    }
}
