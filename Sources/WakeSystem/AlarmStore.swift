import Glibc
import SystemPackage
import WakeCore

/// Why the alarms or the history could not be read or written.
public struct StoreError: Error, CustomStringConvertible, Equatable {
    /// The file or directory concerned ("" when there is none, e.g. no HOME).
    public var path: String
    /// What is wrong, without the path: "line 7: unknown key 'tyme'".
    public var reason: String
    /// The file's contents are wrong (they do not parse, are not UTF-8, are too large): exit 78
    /// (EX_CONFIG). The file is left as it is, never overwritten.
    public var isCorrupt: Bool
    /// A file or directory another user owns or could write: refused, so nobody else can
    /// change your alarms. (EX_NOPERM, 77, fits.)
    public var isUnsafe: Bool
    /// The line a corrupt file is wrong on, when one is.
    public var line: Int?

    public init(path: String, reason: String, isCorrupt: Bool = false, isUnsafe: Bool = false, line: Int? = nil) {
        self.path = path; self.reason = reason; self.isCorrupt = isCorrupt; self.isUnsafe = isUnsafe; self.line = line
    }

    /// `'/home/me/.config/wake/alarms.toml': line 7: unknown key 'tyme'`
    public var description: String { path.isEmpty ? reason : "'\(TerminalText.escape(path))': \(reason)" }
}

/// The standing alarms (`alarms.toml` under the config home) and what happened to them
/// (`history.toml` under the state home).
///
/// Every change runs under an exclusive lock (`FileLock` on `FILE.lock`), reads the file,
/// applies the change and writes the file atomically (`AtomicFile`), so two `wake add` at once
/// both land. A file that does not parse is reported with its line and left byte for byte as
/// it was: nothing is written over it. Directories are created 0700, files 0600; a directory
/// or file owned by another user, or writable by group or others, is refused, for reading
/// and writing alike.
public struct AlarmStore: Sendable {
    public let alarmsFile: String
    public let historyFile: String
    /// How long a change waits for another wake's lock.
    public var lockTimeout: Duration = .seconds(5)

    /// The last alarms file the daemon read whole, under the state home: when the file cannot
    /// be read at all, the daemon rings from this copy rather than not at all.
    public var lastGoodFile: String?

    public init(alarmsFile: String, historyFile: String, lastGoodFile: String? = nil) {
        self.alarmsFile = alarmsFile
        self.historyFile = historyFile
        self.lastGoodFile = lastGoodFile
    }

    /// The store at the XDG paths (`XDGPaths.alarmsFile`, `XDGPaths.historyFile`).
    public static func standard() throws(StoreError) -> AlarmStore {
        guard let alarms = XDGPaths.alarmsFile else {
            throw StoreError(path: "", reason: "cannot find the alarms file: neither XDG_CONFIG_HOME nor HOME is set to an absolute path")
        }
        guard let history = XDGPaths.historyFile else {
            throw StoreError(path: "", reason: "cannot find the history file: neither XDG_STATE_HOME nor HOME is set to an absolute path")
        }
        let store = AlarmStore(alarmsFile: alarms, historyFile: history,
                               lastGoodFile: XDGPaths.stateHome().map { $0 + "/wake/" + lastGoodName })
        if let legacy = XDGPaths.legacyHistoryFile, legacy != history { store.moveHistory(from: legacy) }
        return store
    }

    /// Moves a history left where earlier versions kept it, once; a failure leaves it there
    /// (the occurrences it records were rung; at worst one is recorded again as missed).
    func moveHistory(from legacy: String) {
        guard RegularFile.kind(of: historyFile) == nil, RegularFile.kind(of: legacy) != nil else { return }
        do {
            guard let text = try AtomicFile.read(legacy, check: Self.checkFile(legacy)) else { return }
            _ = try Self.records(text, path: legacy)
            try Self.ensureDirectory(historyDirectory)
            try Self.write(text, to: historyFile)
            unlink(legacy)
            unlink(legacy + ".lock")
        } catch {
            return
        }
    }

    /// `wake/` under the config home: created 0700 when missing (by a change); refused when
    /// owned by another user or writable by group or others.
    public var alarmsDirectory: String { AtomicFile.split(alarmsFile).directory }
    /// The history's directory (the alarms' one, unless a test says otherwise), held to the same rules.
    public var historyDirectory: String { AtomicFile.split(historyFile).directory }

    /// Makes both directories (0700) and checks them, reading no file: the daemon's start, which
    /// must ring whatever the files hold. Each directory that cannot be used is one problem;
    /// the reads and writes that need it say their own later.
    public func prepareDirectories() -> [StoreError] {
        var problems: [StoreError] = []
        for directory in Set([alarmsDirectory, historyDirectory]).sorted() {
            do { try Self.ensureDirectory(directory) } catch { problems.append(error) }
        }
        return problems
    }

    /// A name wake writes beside its files that is not one of them: a lock (`alarms.toml.lock`),
    /// an atomic write's temporary (`.alarms.toml.tmp-PID-N`, and any hidden name: an editor's
    /// swap file), the daemon's last good copy. A watch leaves them out: each `wake add` made the
    /// daemon read every alarm again for its lock and its temporary file, and once more for the
    /// last good copy the read itself wrote.
    public static func isScratch(_ name: [UInt8]) -> Bool {
        if name.first == UInt8(ascii: ".") { return true }
        if name.count > 5, name[name.count - 5 ..< name.count].elementsEqual(".lock".utf8) { return true }
        return name.elementsEqual(lastGoodName.utf8)
    }

    static let lastGoodName = "alarms.last-good.toml"

    // MARK: Alarms

    /// The alarms, in file order (name order for files wake wrote); [] when there is no file.
    public func load() throws(StoreError) -> [StandingAlarm] {
        guard let text = try readExisting(alarmsFile, in: alarmsDirectory) else { return [] }
        return try Self.alarms(text, path: alarmsFile)
    }

    /// Under the lock: reads the alarms, lets `change` modify them, and writes them back
    /// atomically when they changed. Nothing is written when the file does not parse, when
    /// `change` throws, or when the new alarms would not read back as they are (an invalid
    /// name, two alarms with one name, ...).
    public func update<T>(_ change: (inout [StandingAlarm]) throws(StoreError) -> T) throws(StoreError) -> T {
        try Self.ensureDirectory(alarmsDirectory)
        let lock = try FileLock(path: alarmsFile + ".lock", timeout: lockTimeout)
        defer { withExtendedLifetime(lock) {} }
        var old: [StandingAlarm] = []
        if let text = try AtomicFile.read(alarmsFile, check: Self.checkFile(alarmsFile)) {
            old = try Self.alarms(text, path: alarmsFile)
        }
        var new = old
        let result = try change(&new)
        guard new != old else { return result }
        // What would not read back is refused here. The alarms the change left alone were just
        // read from the file, and each table is written and read on its own: only the changed
        // ones are read back (a whole file was three parses of 2,000 alarms in each `wake add`).
        guard Set(new.map(\.name)).count == new.count else {
            throw StoreError(path: alarmsFile, reason: "the changed alarms would hold two alarms of one name; nothing written")
        }
        var before: [String: StandingAlarm] = [:]
        for a in old { before[a.name] = a }
        let changed = new.filter { before[$0.name] != $0 }
        let back: [StandingAlarm]
        do {
            back = try AlarmBook.parse(AlarmBook.serialize(changed))
        } catch {
            throw StoreError(path: alarmsFile, reason: "the changed alarms would not read back (\(error)); nothing written")
        }
        guard back == changed.sorted(by: { $0.name < $1.name }) else {
            throw StoreError(path: alarmsFile, reason: "the changed alarms would not read back as they are; nothing written")
        }
        try Self.write(AlarmBook.serialize(new), to: alarmsFile)
        return result
    }

    /// The daemon's read: what the file holds with each broken alarm set aside (and said), or,
    /// when the file cannot be read at all, the last copy read whole.
    public struct TolerantRead {
        /// nil when nothing could be read, not even a last good copy.
        public var alarms: [StandingAlarm]?
        public var problems: [String]
        /// What was skipped without costing an alarm (a comment that is not UTF-8): said as a
        /// warning, never counted as a problem in the file.
        public var notes: [String] = []
    }

    /// `keepLastGood`: a file read whole is kept as the last good copy (the daemon's read); `wake
    /// doctor`, which changes nothing, reads without it.
    public func loadTolerant(keepLastGood: Bool = true) -> TolerantRead {
        let bytes: [UInt8]?
        do {
            if RegularFile.kind(of: alarmsDirectory) == nil { return TolerantRead(alarms: [], problems: []) }
            try Self.checkDirectory(alarmsDirectory)
            bytes = try AtomicFile.readBytes(alarmsFile, check: Self.checkFile(alarmsFile))
        } catch {
            return fromLastGood(because: error.description)
        }
        guard let bytes else { return TolerantRead(alarms: [], problems: []) }
        // A byte that is not UTF-8 (a bad copy, an editor's other encoding) sets aside its alarm, not the file.
        let read = AtomicFile.textByLine(bytes)
        let unreadable = read.invalidLines.map { AlarmBook.ParseError(line: $0, message: "not valid UTF-8 text") }
        let (alarms, problems) = TolerantParse.parse(read.text, dropping: .table,
                                                     unreadable: unreadable) { (t) throws(AlarmBook.ParseError) in
            try AlarmBook.parse(t)
        }
        guard let alarms else { return fromLastGood(because: problems.first.map { "'\(TerminalText.escape(alarmsFile))': \($0)" } ?? "") }
        if problems.isEmpty && keepLastGood { keepAsLastGood(read.text) }
        let file = TerminalText.escape(alarmsFile)
        let comments = read.commentLines.map {
            "'\(file)' line \($0): a comment that is not valid UTF-8 text is skipped; its alarm is kept; save the file as UTF-8"
        }
        let said = problems.map { "'\(file)' \($0.description): that alarm is set aside until the file is fixed; the others ring" }
        return TolerantRead(alarms: alarms, problems: said, notes: comments)
    }

    private func fromLastGood(because reason: String) -> TolerantRead {
        guard let lastGoodFile, let text = try? AtomicFile.read(lastGoodFile, check: Self.checkFile(lastGoodFile)),
              let alarms = try? AlarmBook.parse(text) else {
            return TolerantRead(alarms: nil, problems: ["cannot read the alarms: \(reason)"])
        }
        return TolerantRead(alarms: alarms, problems: ["cannot read the alarms: \(reason); ringing them as last read whole (\(TerminalText.escape(lastGoodFile)))"])
    }

    private func keepAsLastGood(_ text: String) {
        guard let lastGoodFile else { return }
        if let kept = try? AtomicFile.read(lastGoodFile, check: Self.checkFile(lastGoodFile)), kept == text { return }
        do {
            try Self.ensureDirectory(AtomicFile.split(lastGoodFile).directory)
            try Self.write(text, to: lastGoodFile)
        } catch {
            return  // a convenience: the file itself is what rings
        }
    }

    // MARK: History

    /// What happened to each alarm, by name; empty when there is no file.
    public func loadHistory() throws(StoreError) -> [String: AlarmRecord] {
        guard let text = try readExisting(historyFile, in: historyDirectory) else { return [:] }
        return try Self.records(text, path: historyFile)
    }

    /// The daemon's read of the history: each line that does not parse (or is not UTF-8) set
    /// aside, the rest read, so one bad line costs what it said and no more. `problems` says
    /// what was set aside; a file that cannot be read at all gives no records and one problem.
    public func loadHistoryTolerant() -> (records: [String: AlarmRecord], problems: [StoreError]) {
        let bytes: [UInt8]?
        do {
            if RegularFile.kind(of: historyDirectory) == nil { return ([:], []) }
            try Self.checkDirectory(historyDirectory)
            bytes = try AtomicFile.readBytes(historyFile, check: Self.checkFile(historyFile))
        } catch {
            return ([:], [error])
        }
        guard let bytes else { return ([:], []) }
        let read = AtomicFile.textByLine(bytes)
        let unreadable = read.invalidLines.map { AlarmBook.ParseError(line: $0, message: "not valid UTF-8 text") }
        let (records, problems) = TolerantParse.parse(read.text, dropping: .line,
                                                      unreadable: unreadable) { (t) throws(AlarmBook.ParseError) in
            try AlarmHistory.parse(t)
        }
        let said = problems.map { StoreError(path: historyFile, reason: $0.description, isCorrupt: true, line: $0.line) }
        return (records ?? [:], said)
    }

    /// `update` for the history.
    public func updateHistory<T>(_ change: (inout [String: AlarmRecord]) throws(StoreError) -> T) throws(StoreError) -> T {
        try Self.ensureDirectory(historyDirectory)
        let lock = try FileLock(path: historyFile + ".lock", timeout: lockTimeout)
        defer { withExtendedLifetime(lock) {} }
        var old: [String: AlarmRecord] = [:]
        if let text = try AtomicFile.read(historyFile, check: Self.checkFile(historyFile)) {
            old = try Self.records(text, path: historyFile)
        }
        var new = old
        let result = try change(&new)
        guard new != old else { return result }
        let text = AlarmHistory.serialize(new)
        let back: [String: AlarmRecord]
        do {
            back = try AlarmHistory.parse(text)
        } catch {
            throw StoreError(path: historyFile, reason: "the changed history would not read back (\(error)); nothing written")
        }
        guard back == new else {
            throw StoreError(path: historyFile, reason: "the changed history would not read back as it is; nothing written")
        }
        try Self.write(text, to: historyFile)
        return result
    }

    // MARK: Files and directories

    static func alarms(_ text: String, path: String) throws(StoreError) -> [StandingAlarm] {
        do {
            return try AlarmBook.parse(text)
        } catch {
            throw StoreError(path: path, reason: error.description, isCorrupt: true, line: error.line)
        }
    }

    static func records(_ text: String, path: String) throws(StoreError) -> [String: AlarmRecord] {
        do {
            return try AlarmHistory.parse(text)
        } catch {
            throw StoreError(path: path, reason: error.description, isCorrupt: true, line: error.line)
        }
    }

    static func write(_ text: String, to path: String) throws(StoreError) {
        do {
            try AtomicFile.write(text, to: path, mode: 0o600)
        } catch {
            throw StoreError(path: path, reason: "cannot write it (\(error)); the file is as it was")
        }
    }

    /// The text of `path`, or nil when it or its directory does not exist; both checked first.
    func readExisting(_ path: String, in directory: String) throws(StoreError) -> String? {
        guard RegularFile.kind(of: directory) != nil else { return nil }
        try Self.checkDirectory(directory)
        return try AtomicFile.read(path, check: Self.checkFile(path))
    }

    /// Refuses what another user could have written: owned by someone else, or writable by
    /// group or others.
    static func checkOwnership(_ st: stat, path: String, what: String, fix: String) throws(StoreError) {
        let me = geteuid()
        if st.st_uid != me {
            throw StoreError(path: path, reason: "\(what) is owned by uid \(st.st_uid), not by you (uid \(me)): another user could change your alarms; refusing to use it",
                             isUnsafe: true)
        }
        if st.st_mode & 0o022 != 0 {
            let mode = String(st.st_mode & 0o7777, radix: 8)
            let writers = st.st_mode & 0o022 == 0o022 ? "its group and others" : st.st_mode & 0o002 != 0 ? "others" : "its group"
            throw StoreError(path: path, reason: "\(what) is writable by \(writers) (mode \(mode)): another user could change your alarms; refusing to use it until you run chmod \(fix) on it",
                             isUnsafe: true)
        }
    }

    static func checkFile(_ path: String) -> (stat) throws(StoreError) -> Void {
        { (st) throws(StoreError) in try checkOwnership(st, path: path, what: "the file", fix: "600") }
    }

    static func checkDirectory(_ directory: String) throws(StoreError) {
        var st = stat()
        do {
            try syscall("stat") { stat(directory, &st) }
        } catch {
            throw StoreError(path: directory, reason: error.description)
        }
        guard st.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError(path: directory, reason: "is \(FileKind(mode: st.st_mode)), not a directory")
        }
        try checkOwnership(st, path: directory, what: "the directory", fix: "700")
    }

    /// Creates `directory` and any missing parents 0700 (as the XDG spec asks), then checks it:
    /// also for the other files wake keeps beside the alarms (`wake holidays import`'s calendars).
    public static func ensureDirectory(_ directory: String) throws(StoreError) {
        if RegularFile.kind(of: directory) == nil {
            var prefix = directory.hasPrefix("/") ? "" : "."
            for component in directory.split(separator: "/") {
                prefix += "/" + component
                if RegularFile.kind(of: prefix) != nil { continue }
                do {
                    try syscall("mkdir") { mkdir(prefix, 0o700) }
                    try syscall("chmod") { chmod(prefix, 0o700) }  // 0700 whatever the umask
                } catch {
                    if error.errno == .fileExists { continue }  // made by another wake meanwhile
                    throw StoreError(path: prefix, reason: "cannot create the directory: \(error)")
                }
            }
        }
        try checkDirectory(directory)
    }
}
