import Glibc
import SystemPackage

/// Opening a path the user named, without ever blocking.
///
/// A plain `open` of a FIFO for reading waits for a writer, and for writing waits for a reader:
/// a `TZ`, `--sound`, `--events` or `ALSA_CONFIG_PATH` naming one would hang wake before it
/// even armed. Every user-named path is opened here instead: with `O_NONBLOCK | O_CLOEXEC |
/// O_NOCTTY` (an open that can never wait, leak into a child or steal a controlling terminal),
/// then `fstat`ed, refused unless it is a kind the caller accepts, and only then switched back
/// to blocking I/O (FIFOs excepted: see `open`).
public enum FileKind: Sendable, Equatable, CustomStringConvertible {
    case regular, directory, fifo, characterDevice, blockDevice, socket, symbolicLink, unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .unknown
        }
    }

    /// With an article, for messages: "is a FIFO, not a regular file".
    public var description: String {
        switch self {
        case .regular: return "a regular file"
        case .directory: return "a directory"
        case .fifo: return "a FIFO"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        case .symbolicLink: return "a symbolic link"
        case .unknown: return "not a file of any known kind"
        }
    }
}

/// Why a user-named path could not be opened: the path, the reason in words (no path in it),
/// and the errno closest to that reason (`EISDIR` for a directory, `ENXIO` for a FIFO, ...).
public struct FileOpenError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var reason: String
    public var errno: Errno
    public init(path: String, reason: String, errno: Errno) { self.path = path; self.reason = reason; self.errno = errno }
    public var description: String { "'\(path.printable)': \(reason)" }
}

/// An open descriptor and what `fstat` said about it. The caller owns `fd`.
public struct OpenedFile {
    public let fd: Int32
    public let kind: FileKind
    public let size: Int64
}

public enum RegularFile {
    /// Opens `path` without blocking and checks what it is.
    ///
    /// - `flags`: `O_RDONLY`, or `O_WRONLY` with `O_APPEND`/`O_CREAT`...; `O_NONBLOCK`,
    ///   `O_CLOEXEC` and `O_NOCTTY` are always added.
    /// - `accept`: the kinds the caller can use; anything else is closed again and refused with
    ///   "is a FIFO, not a regular file" (or the kinds accepted, when more than one). An array,
    ///   not a Set: a Set of this enum made every command pay the Swift runtime's scan of all
    ///   conformance records (for FileKind's Hashable), about a tenth of `wake list`'s own time.
    ///
    /// `O_NONBLOCK` is cleared again before returning, except on a FIFO (or pipe): there it stays,
    /// so a reader that stops reading can never stall a write (the write fails with EAGAIN instead).
    /// A FIFO opened for writing with no reader fails at once (ENXIO), reported as
    /// "is a FIFO with no reader".
    public static func open(_ path: String, flags: Int32 = O_RDONLY, mode: mode_t = 0o644,
                            accept: [FileKind] = [.regular]) throws(FileOpenError) -> OpenedFile {
        func fail(_ reason: String, _ e: Errno) -> FileOpenError { FileOpenError(path: path, reason: reason, errno: e) }
        if path.isEmpty { throw fail("the path is empty", .noSuchFileOrDirectory) }
        let fd: Int32
        do {
            fd = try syscall("open") { Glibc.open(path, flags | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, mode) }
        } catch {
            if error.errno == .noSuchAddressOrDevice, (flags & O_ACCMODE) != O_RDONLY, kind(of: path) == .fifo {
                throw fail("is a FIFO with no reader; writing to it would wait until one comes", error.errno)
            }
            throw fail(error.errno.description, error.errno)
        }
        var st = stat()
        do {
            try syscall("fstat") { fstat(fd, &st) }
        } catch {
            close(fd)
            throw fail("fstat: \(error.errno)", error.errno)
        }
        let kind = FileKind(mode: st.st_mode)
        guard accept.contains(kind) else {
            close(fd)
            let wanted = accept.contains(.regular) && accept.count == 1 ? "a regular file" : describe(accept)
            throw fail("is \(kind), not \(wanted)", kind == .directory ? .isDirectory : .noSuchAddressOrDevice)
        }
        if kind != .fifo {
            let fl = fcntl(fd, F_GETFL)
            if fl == -1 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1 {
                let e = Errno(rawValue: Glibc.errno)
                close(fd)
                throw fail("fcntl: \(e)", e)
            }
        }
        return OpenedFile(fd: fd, kind: kind, size: Int64(st.st_size))
    }

    /// What is at `path` (following symbolic links), or nil when nothing is.
    public static func kind(of path: String) -> FileKind? {
        var st = stat()
        return stat(path, &st) == 0 ? FileKind(mode: st.st_mode) : nil
    }

    /// Reads all of a small file: the whole of it, or throws. `limit` bounds what is accepted.
    public static func readAll(_ path: String, limit: Int = 1 << 20) throws(FileOpenError) -> [UInt8] {
        let file = try open(path)
        defer { close(file.fd) }
        if file.size > Int64(limit) { throw FileOpenError(path: path, reason: "is larger than \(limit) bytes", errno: .fileTooLarge) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n: Int
            do {
                n = try syscall("read") { chunk.withUnsafeMutableBytes { read(file.fd, $0.baseAddress, $0.count) } }
            } catch {
                throw FileOpenError(path: path, reason: "read: \(error.errno)", errno: error.errno)
            }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            if bytes.count > limit { throw FileOpenError(path: path, reason: "is larger than \(limit) bytes", errno: .fileTooLarge) }
        }
    }

    private static func describe(_ kinds: [FileKind]) -> String {
        let order: [FileKind] = [.regular, .characterDevice, .fifo, .directory, .blockDevice, .socket]
        let names = order.filter(kinds.contains).map(\.description)
        return names.count <= 1 ? (names.first ?? "anything") : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
