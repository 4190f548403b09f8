import Glibc
import SystemPackage

/// Whole-file reads and writes for wake's small files.
///
/// A write never leaves a partial file where the old one was: it goes to a new temporary file
/// in the same directory, is flushed to the disk, and only then renamed over the old file (an
/// atomic replacement on one file system); the directory is flushed too, so the rename
/// survives a crash. A write that fails on the way (no space, an I/O error) removes its
/// temporary file and leaves the old file as it was.
public enum AtomicFile {
    /// The largest file read: far more than any alarms file; a bound on what a mistake costs.
    public static let readLimit = 1 << 20

    /// Writes `text` to a temporary file in `path`'s directory (created with `O_EXCL` and
    /// `mode`, exactly), fsyncs it, renames it over `path`, and fsyncs the directory.
    public static func write(_ text: String, to path: String, mode: mode_t = 0o600) throws(SystemCallError) {
        let (directory, base) = split(path)
        var temporary = ""
        var fd: Int32 = -1
        for attempt in 1...100 {
            temporary = directory + "/." + base + ".tmp-\(getpid())-\(UInt32.random(in: .min ... .max))"
            do {
                fd = try syscall("open") { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, mode) }
                break
            } catch {
                if error.errno != .fileExists || attempt == 100 { throw error }
            }
        }
        do throws(SystemCallError) {
            try syscall("fchmod") { fchmod(fd, mode) }  // exactly `mode`, whatever the umask
            let bytes = Array(text.utf8)
            var written = 0
            while written < bytes.count {
                let n = try syscall("write") {
                    bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
                }
                if n == 0 { throw SystemCallError("write", .noSpace) }
                written += n
            }
            try syscall("fsync") { fsync(fd) }
            let closed = close(fd)
            fd = -1
            if closed == -1, Glibc.errno != EINTR { throw SystemCallError("close", Errno(rawValue: Glibc.errno)) }
            try syscall("rename") { rename(temporary, path) }
        } catch {
            if fd != -1 { close(fd) }
            unlink(temporary)
            throw error
        }
        try syncDirectory(directory)
        removeAbandonedTemporaries(of: base, in: directory)
    }

    /// Removes the temporary files that writers of `base` killed mid-write left behind
    /// (`.BASE.tmp-PID-N` whose PID no longer runs), so a `wake add` killed at the wrong moment
    /// leaves no litter for long: the next write of the file sweeps it.
    static func removeAbandonedTemporaries(of base: String, in directory: String) {
        let prefix = "." + base + ".tmp-"
        for name in DirectoryListing.names(in: directory) where name.hasPrefix(prefix) {
            if isAbandoned(name.dropFirst(prefix.count)) { unlink(directory + "/" + name) }
        }
    }

    /// Whether a temporary file's `PID-N` suffix names a writer that is gone (false while it
    /// runs, and for a name that is not one of ours).
    static func isAbandoned(_ suffix: Substring) -> Bool {
        let parts = suffix.split(separator: "-")
        guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, pid != getpid(), UInt32(parts[1]) != nil else { return false }
        return kill(pid, 0) == -1 && Glibc.errno == ESRCH
    }

    /// Flushes a directory's entries (a rename in it) to the disk.
    static func syncDirectory(_ directory: String) throws(SystemCallError) {
        let fd = try syscall("open") { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(fd) }
        do {
            try syscall("fsync") { fsync(fd) }
        } catch {
            // Some file systems cannot sync a directory; the rename is then as durable as they make it.
            if error.errno != .invalidArgument { throw error }
        }
    }

    /// The file's text, or nil when it does not exist. Regular files only (`RegularFile`: a
    /// FIFO or device there is refused at once, never waited on), at most `readLimit` bytes,
    /// UTF-8 only (anything else is reported as corrupt, with its line).
    public static func read(_ path: String) throws(StoreError) -> String? {
        try read(path, check: nil)
    }

    /// `read`, with `check` run on the opened file's `fstat` before anything is read (so the
    /// file checked is the file read).
    static func read(_ path: String, check: ((stat) throws(StoreError) -> Void)?) throws(StoreError) -> String? {
        guard let bytes = try readBytes(path, check: check) else { return nil }
        return try text(bytes, path: path)
    }

    /// `read` without the UTF-8 check: the daemon's tolerant read sets aside the lines that are
    /// not text rather than the whole file.
    static func readBytes(_ path: String, check: ((stat) throws(StoreError) -> Void)?) throws(StoreError) -> [UInt8]? {
        let file: OpenedFile
        do {
            file = try RegularFile.open(path)
        } catch {
            if error.errno == .noSuchFileOrDirectory { return nil }
            throw StoreError(path: path, reason: error.reason)
        }
        defer { close(file.fd) }
        if let check {
            var st = stat()
            do {
                try syscall("fstat") { fstat(file.fd, &st) }
            } catch {
                throw StoreError(path: path, reason: error.description)
            }
            try check(st)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n: Int
            do {
                n = try syscall("read") { chunk.withUnsafeMutableBytes { Glibc.read(file.fd, $0.baseAddress, $0.count) } }
            } catch {
                throw StoreError(path: path, reason: error.description)
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > readLimit {
                throw StoreError(path: path, reason: "is larger than \(readLimit) bytes", isCorrupt: true)
            }
        }
        return bytes
    }

    /// What a file's bytes read as, line by line.
    struct LineText: Equatable {
        var text: String
        /// Lines that are not UTF-8, left empty (a table's header as a bare `[`, so that the
        /// table it opens is what gets set aside).
        var invalidLines: [Int] = []
        /// Lines whose comment is not UTF-8 (a `# café` saved as Latin-1): the comment is cut
        /// off, as a reader skips it anyway, and what comes before it is kept.
        var commentLines: [Int] = []
    }

    static func textByLine(_ bytes: [UInt8]) -> LineText {
        if let s = String(validating: bytes, as: UTF8.self) { return LineText(text: s) }
        var out = LineText(text: "")
        var lines: [String] = []
        for (i, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if let s = String(validating: line, as: UTF8.self) {
                lines.append(s)
            } else if let code = beforeComment(line) {
                lines.append(code)
                out.commentLines.append(i + 1)
            } else {
                lines.append(line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.first == UInt8(ascii: "[") ? "[" : "")
                out.invalidLines.append(i + 1)
            }
        }
        out.text = lines.joined(separator: "\n")
        return out
    }

    /// The line up to its comment (a `#` outside a quoted string), when that part is UTF-8;
    /// nil when the line has no comment or its code itself is not text.
    static func beforeComment(_ line: ArraySlice<UInt8>) -> String? {
        var quote: UInt8? = nil
        var escaped = false
        for i in line.indices {
            let b = line[i]
            if let q = quote {
                if escaped { escaped = false }
                else if b == UInt8(ascii: "\\") && q == UInt8(ascii: "\"") { escaped = true }
                else if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "#") {
                return String(validating: line[..<i], as: UTF8.self)
            }
        }
        return nil
    }

    /// `bytes` as UTF-8 text (a comment that is not, cut off), or a corrupt-file error naming the
    /// first line that is not.
    static func text(_ bytes: [UInt8], path: String) throws(StoreError) -> String {
        let read = textByLine(bytes)
        guard let line = read.invalidLines.first else { return read.text }
        throw StoreError(path: path, reason: "line \(line): not valid UTF-8 text", isCorrupt: true, line: line)
    }

    /// The directory part and the last component of `path` ("." for a bare name).
    public static func split(_ path: String) -> (directory: String, base: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
