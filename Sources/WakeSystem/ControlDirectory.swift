import Glibc

/// Why the control directory cannot be used; `unsafe` when it belongs to someone else or
/// others can reach it (wake then stays out of it).
public struct ControlDirectoryError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var remedy: String
    public var unsafe: Bool
    public var description: String { "the control directory '\(path.printable)' \(reason); \(remedy)" }
}

/// Where every running wake of a user registers its control socket: `<runtime>/wake/<pid>.sock`.
/// The runtime base is `$XDG_RUNTIME_DIR` when it is absolute (as the XDG spec asks), else
/// `/run/user/<uid>` when that is the user's own directory (logind's), else `/tmp/wake-<uid>`
/// (as tmux does without a runtime directory). The directory is the user's alone (0700): wake
/// makes it so and refuses one that another user owns or others can reach, whatever
/// `XDG_RUNTIME_DIR` says, and each request is checked again by its peer's credentials.
public enum ControlDirectory {
    /// The directory's path, without touching it. `environment` replaces the process environment.
    public static func path(environment: [String: String]? = nil) -> String {
        let uid = geteuid()
        let runtime = environment.map { $0["XDG_RUNTIME_DIR"] } ?? getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        if let r = runtime, r.hasPrefix("/") { return XDGPaths.trimmed(r) + (XDGPaths.trimmed(r) == "/" ? "wake" : "/wake") }
        let logind = "/run/user/\(uid)"
        var st = stat()
        if lstat(logind, &st) == 0, st.st_mode & S_IFMT == S_IFDIR, st.st_uid == uid, st.st_mode & 0o022 == 0 {
            return logind + "/wake"
        }
        return "/tmp/wake-\(uid)"
    }

    /// The directory, made (0700) when `create` and missing, and checked: a real directory (not
    /// a link), owned by this user, with no access for group or others. Nil when it does not
    /// exist and `create` is false (then no wake of this user is running).
    public static func prepare(create: Bool, environment: [String: String]? = nil) throws(ControlDirectoryError) -> String? {
        let dir = path(environment: environment)
        var st = stat()
        if lstat(dir, &st) != 0 {
            let e = errno
            guard e == ENOENT else { throw failure(dir, "cannot be read (\(String(cString: strerror(e))))", "check its permissions") }
            guard create else { return nil }
            if mkdir(dir, 0o700) != 0 && errno != EEXIST {
                let e = errno
                let parent = String(dir[..<(dir.lastIndex(of: "/") ?? dir.endIndex)])
                throw failure(dir, "cannot be made (\(String(cString: strerror(e))))",
                              "make sure '\(parent.printable)' exists and is yours, or set XDG_RUNTIME_DIR to such a directory")
            }
            guard lstat(dir, &st) == 0 else { throw failure(dir, "vanished after it was made", "try again") }
        }
        try check(dir, st)
        return dir
    }

    /// Whether `dir` is there and checked as `prepare` checks it (false when it is missing):
    /// for a reader that is handed the path, as the daemon's D-Bus API is for the one-offs.
    public static func verify(_ dir: String) throws(ControlDirectoryError) -> Bool {
        var st = stat()
        guard lstat(dir, &st) == 0 else { return false }
        try check(dir, st)
        return true
    }

    static func check(_ dir: String, _ st: stat) throws(ControlDirectoryError) {
        guard st.st_mode & S_IFMT == S_IFDIR else {
            throw ControlDirectoryError(path: dir, reason: "is not a directory (a link or a file is never followed)",
                                        remedy: "remove it, or set XDG_RUNTIME_DIR to your own runtime directory", unsafe: true)
        }
        let uid = geteuid()
        guard st.st_uid == uid else {
            throw ControlDirectoryError(path: dir, reason: "belongs to uid \(st.st_uid), not to you (uid \(uid))",
                                        remedy: "set XDG_RUNTIME_DIR to your own runtime directory", unsafe: true)
        }
        guard st.st_mode & 0o077 == 0 else {
            let mode = String(st.st_mode & 0o777, radix: 8)
            throw ControlDirectoryError(path: dir, reason: "can be reached by other users (mode \(mode))",
                                        remedy: "run 'chmod 700 \(dir.printable)'", unsafe: true)
        }
    }

    static func failure(_ dir: String, _ reason: String, _ remedy: String) -> ControlDirectoryError {
        ControlDirectoryError(path: dir, reason: reason, remedy: remedy, unsafe: false)
    }

    /// The socket a process with `pid` listens on.
    public static func socketPath(in dir: String, pid: Int32) -> String { "\(dir)/\(pid).sock" }

    /// Marks a change of the alarms a registered process runs: the socket's times set to now,
    /// which an inotify watch on the directory sees (IN_ATTRIB) and a client need not poll for.
    /// A failure only delays a follower until its next look; it is not said.
    public static func announceChange(_ socketPath: String) {
        _ = utimensat(AT_FDCWD, socketPath, nil, AT_SYMLINK_NOFOLLOW)
    }

    /// The registered processes: every `<pid>.sock` that is a socket owned by this user.
    public static func entries(in dir: String) -> [(pid: Int32, path: String)] {
        var found: [(Int32, String)] = []
        let uid = geteuid()
        for name in DirectoryListing.names(in: dir) {
            let stem = name.hasSuffix(".sock") ? name.dropLast(5) : ""
            guard stem.allSatisfy(\.isASCIIDigit), let pid = Int32(stem), pid > 0 else { continue }
            let path = dir + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFSOCK, st.st_uid == uid else { continue }
            found.append((pid, path))
        }
        return found.sorted { $0.0 < $1.0 }
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
