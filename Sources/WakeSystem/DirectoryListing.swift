import Glibc

/// The one `opendir`/`readdir` walk: the names in a directory (without `.` and `..`), or none
/// when it cannot be opened. The control directory, the mixer save files and the RTC list each
/// filter these names their own way.
public enum DirectoryListing {
    public static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
