import Glibc
import SystemPackage
import WakeCore

/// The hooks folder (`$XDG_CONFIG_HOME/wake/hooks.d`) and every program a hook would run, as
/// ssh's StrictModes judges a file: run only if it is the user's (or root's) and nobody else
/// can write it or the folder holding it; a file another user could replace would run as you.
public enum HookFolder {
    public static let name = "hooks.d"

    /// One file of the folder, or a `--hook` program, and whether it runs.
    public struct Entry: Sendable, Equatable {
        public enum Verdict: Sendable, Equatable {
            case runs
            /// Not executable: left alone (a README, a disabled hook), said by `wake doctor` only.
            case notExecutable
            /// Refused: the one line saying why and what to do.
            case unsafe(String)
        }
        public var path: String
        public var verdict: Verdict
        public var name: String { path.split(separator: "/").last.map(String.init) ?? path }
    }

    /// What the folder holds, in byte order of the names (as run-parts runs them); the folder's
    /// own problem instead when it is not safe (nothing in it runs), or nothing when it is absent.
    public enum Listing: Sendable, Equatable {
        case absent
        case unsafe(String)
        case entries([Entry])

        public var runnable: [String] {
            guard case .entries(let e) = self else { return [] }
            return e.filter { $0.verdict == .runs }.map(\.path)
        }
    }

    public static var directory: String? { XDGPaths.wakeConfigDirectory.map { $0 + "/" + name } }

    /// Names a package manager or an editor leaves behind, never run: `.hidden`, `x~`, `x.dpkg-old`, `x.swp`.
    static func ignored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.contains(".dpkg-") || name.hasSuffix(".swp") || name.hasSuffix(".rpmsave")
    }

    public static func list(_ folder: String) -> Listing {
        var st = stat()
        guard stat(folder, &st) == 0 else { return .absent }
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            return .unsafe("the hooks folder '\(folder.printable)' is not a folder; remove it or make it one")
        }
        if let why = writableByOthers(st, folder, what: "the hooks folder") { return .unsafe(why) }
        let parent = String(folder[..<(folder.lastIndex(of: "/") ?? folder.endIndex)])
        var pst = stat()
        if !parent.isEmpty, stat(parent, &pst) == 0, let why = writableByOthers(pst, parent, what: "the folder holding the hooks") {
            return .unsafe(why)
        }
        guard let dir = opendir(folder) else {
            return .unsafe("cannot read the hooks folder '\(folder.printable)' (\(Errno(rawValue: errno))); chmod u+rx it")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name != ".", name != "..", !ignored(name) { names.append(name) }
        }
        names.sort { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return .entries(names.compactMap { name in
            let path = folder + "/" + name
            var fst = stat()
            guard stat(path, &fst) == 0 else {
                let why = "hook '\(path.printable)' cannot be read (\(Errno(rawValue: errno))); fix or remove it"
                return Entry(path: path, verdict: .unsafe(why))
            }
            guard (fst.st_mode & S_IFMT) == S_IFREG else { return nil }  // a subfolder is nobody's hook
            return Entry(path: path, verdict: verdict(path, fst))
        })
    }

    /// Whether `path` (a program a `--hook` names, found on PATH) may run.
    public static func check(program path: String) -> Entry.Verdict {
        var st = stat()
        guard stat(path, &st) == 0 else { return .unsafe("hook program '\(path.printable)' cannot be read (\(Errno(rawValue: errno)))") }
        return verdict(path, st)
    }

    static func verdict(_ path: String, _ st: stat) -> Entry.Verdict {
        if let why = writableByOthers(st, path, what: "hook") { return .unsafe(why) }
        return access(path, X_OK) == 0 ? .runs : .notExecutable
    }

    /// Owned by another user (not root), or writable by the group or by everyone: the line to say.
    static func writableByOthers(_ st: stat, _ path: String, what: String) -> String? {
        let me = geteuid()
        if st.st_uid != me && st.st_uid != 0 {
            return "\(what) '\(path.printable)' belongs to another user (uid \(st.st_uid)), so it is not run; chown it to yourself"
        }
        if st.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            let mode = String(st.st_mode & 0o7777, radix: 8)
            return "\(what) '\(path.printable)' can be written by others (mode \(mode)), so it is not run; chmod go-w it"
        }
        return nil
    }

    /// Of wake's environment, the variables `HookEnvironment.passed` names.
    public static func inheritedEnvironment() -> [String: String] {
        var env: [String: String] = [:]
        for name in HookEnvironment.passed { if let v = getenv(name) { env[name] = String(cString: v) } }
        return env
    }

    /// `path` when it is a folder a hook can start in (the user's home), else nil.
    public static func startingDirectory(_ path: String?) -> String? {
        guard let path, access(path, X_OK) == 0 else { return nil }
        return path
    }

    /// `program` as `execvp` would find it on `path` (a name with a slash is taken as it is; a
    /// folder of that name is passed over), made absolute: a hook starts in the home folder, so a
    /// relative name would otherwise run another file than the one checked.
    public static func resolve(_ program: String, path: String?) -> String? {
        func found(_ p: String) -> String? { try? WorkingDirectory.absolute(p) }
        if program.contains("/") { return access(program, F_OK) == 0 ? found(program) : nil }
        for dir in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(program)"
            var st = stat()
            if access(candidate, X_OK) == 0, stat(candidate, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR { return found(candidate) }
        }
        return nil
    }
}
