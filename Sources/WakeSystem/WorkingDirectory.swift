import Glibc
import SystemPackage

/// The process's working directory, for names given relative to it.
public enum WorkingDirectory {
    /// `path` made absolute against the working directory. A file named to `wake add` is read
    /// later by the daemon, whose working directory is another (the user manager starts it in $HOME).
    public static func absolute(_ path: String) throws(SystemCallError) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let got = buffer.withUnsafeMutableBufferPointer { getcwd($0.baseAddress, $0.count) }
        guard got != nil else { throw SystemCallError("getcwd", Errno(rawValue: Glibc.errno)) }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return (cwd == "/" ? "" : cwd) + "/" + relative
    }
}
