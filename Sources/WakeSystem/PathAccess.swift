import Glibc

/// Whether this process may do something to a path, asked of the kernel (`access`, real IDs),
/// changing nothing: `wake doctor` looks, and never makes a directory to find out.
public enum PathAccess {
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The path can be written to (for a directory: files can be made in it).
    public static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// The nearest existing directory at or above `path`: where a missing one would be made.
    public static func nearestExisting(_ path: String) -> String {
        var p = path
        while !p.isEmpty, p != "/", !exists(p) {
            guard let slash = p.lastIndex(of: "/") else { return "." }
            p = slash == p.startIndex ? "/" : String(p[..<slash])
        }
        return p.isEmpty ? "/" : p
    }
}
