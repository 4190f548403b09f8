import CLinux
import Glibc
import SystemPackage

/// Who is at the other end of a Unix socket, as the kernel recorded it at connect().
public struct PeerCredentials: Equatable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
}

/// A stream socket in the file system (`AF_UNIX`): the control endpoint's listener, its
/// accepted clients, and the client's side. Always non-blocking and close-on-exec: the event
/// loop owns every wait, and a client bounds its own with poll.
public final class UnixSocket {
    public let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    public enum ReadResult: Equatable {
        case bytes(Int)
        case wouldBlock
        case end
    }

    /// Listens at `path` (mode 0600; its directory must be the caller's own, 0700), replacing a
    /// socket left there by a process that died; any other kind of file is left alone and refused.
    public static func listen(at path: String, backlog: Int32 = 16) throws(SystemCallError) -> UnixSocket {
        var address = try address(path)
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFSOCK else { throw SystemCallError("bind(\(path))", .fileExists) }
            _ = unlink(path)
        }
        let fd = try syscall("socket(AF_UNIX)") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do throws(SystemCallError) {
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if bound != 0 { throw SystemCallError("bind(\(path))", Errno(rawValue: Glibc.errno)) }
            // bind makes the file with the umask applied; the umask is the whole process's, so it
            // is not changed around the call: the caller's 0700 directory keeps others out until
            // the mode is set (fchmod on a socket does not reach its file on Linux), before listen.
            try syscall("chmod(\(path))") { chmod(path, 0o600) }
            try syscall("listen(\(path))") { Glibc.listen(fd, backlog) }
        } catch {
            close(fd)
            throw error
        }
        return UnixSocket(fd: fd)
    }

    /// Connects to the socket at `path`. Throws `ECONNREFUSED` when nothing listens there (its
    /// process is gone), `EAGAIN` when its queue is full (it is busy, or hung).
    public static func connect(to path: String) throws(SystemCallError) -> UnixSocket {
        var address = try address(path)
        let fd = try syscall("socket(AF_UNIX)") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if r != 0 {
            let e = Errno(rawValue: Glibc.errno)
            close(fd)
            throw SystemCallError("connect(\(path))", e)
        }
        return UnixSocket(fd: fd)
    }

    /// The next client waiting on a listener, or nil when none is.
    public func accept() throws(SystemCallError) -> UnixSocket? {
        while true {
            let c = accept4(fd, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            if c >= 0 { return UnixSocket(fd: c) }
            switch Errno(rawValue: Glibc.errno) {
            case .interrupted: continue
            case .resourceTemporarilyUnavailable: return nil
            // The client gave up between its connect and our accept: nothing to serve.
            case .connectionAbort, .protocolError: continue
            case let e: throw SystemCallError("accept4", e)
            }
        }
    }

    public func peerCredentials() throws(SystemCallError) -> PeerCredentials {
        var peer = wake_peer()
        try syscall("getsockopt(SO_PEERCRED)") { wake_peer_credentials(fd, &peer) }
        return PeerCredentials(pid: peer.pid, uid: peer.uid, gid: peer.gid)
    }

    /// Appends what is there, at most `limit` bytes.
    public func read(into buffer: inout [UInt8], limit: Int) throws(SystemCallError) -> ReadResult {
        guard limit > 0 else { return .bytes(0) }
        var chunk = [UInt8](repeating: 0, count: limit)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, limit) }
            if n > 0 { buffer += chunk.prefix(n); return .bytes(n) }
            if n == 0 { return .end }
            switch Errno(rawValue: Glibc.errno) {
            case .interrupted: continue
            case .resourceTemporarilyUnavailable: return .wouldBlock
            case .connectionReset: return .end
            case let e: throw SystemCallError("read(socket)", e)
            }
        }
    }

    /// Writes what the socket takes now; 0 when it takes nothing. Never raises SIGPIPE.
    public func write(_ bytes: ArraySlice<UInt8>) throws(SystemCallError) -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n >= 0 { return n }
            switch Errno(rawValue: Glibc.errno) {
            case .interrupted: continue
            case .resourceTemporarilyUnavailable: return 0
            case let e: throw SystemCallError("send(socket)", e)
            }
        }
    }

    /// A socket address for `path`, which must fit `sun_path` with its terminating NUL.
    static func address(_ path: String) throws(SystemCallError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else { throw SystemCallError("socket path '\(path)'", .fileNameTooLong) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return address
    }
}
