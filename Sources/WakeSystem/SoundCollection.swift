import Glibc
import WakeCore

/// A folder or an M3U/M3U8 list given as the sound, read from disk: the paths of its entries
/// that are regular files now (by `SoundList`'s rules), and one problem per entry refused. Only
/// listed and `stat`ed, never decoded: the caller decides how much each entry is checked.
public struct SoundCollection: Sendable, Equatable {
    public var kind: SoundList.Kind
    public var path: String
    /// Regular files (or links to them), in the folder's byte order or the list's order.
    public var entries: [String]
    /// One line per entry or list line refused, naming it (a list's missing files are `missing`).
    public var problems: [String]
    /// A list's entries that do not exist, in its order: said together (`SoundList.missingLines`).
    public var missing: [String] = []
    /// A folder's files left out for their extension (counted, never warned about).
    public var ignored: Int
    /// False when the folder cannot be listed (its permissions).
    public var readable = true

    /// The folder or list at `path`; nil when `path` is a single sound file (or nothing: the
    /// sound file's own checks say why). Throws when the list cannot be read.
    public static func read(_ path: String) throws(FileOpenError) -> SoundCollection? {
        guard let kind = RegularFile.kind(of: path) else { return nil }
        switch SoundList.kind(of: path, isDirectory: kind == .directory) {
        case .file:
            return nil
        case .folder:
            return folder(path)
        case .playlist:
            guard kind == .regular else { return nil }
            let bytes = try RegularFile.readAll(path, limit: 4 << 20)
            let parsed = SoundList.parseM3U(bytes: bytes, listDirectory: SoundList.directory(of: path))
            var result = SoundCollection(kind: .playlist, path: path, entries: [], problems: parsed.problems, ignored: 0)
            for entry in parsed.entries {
                switch RegularFile.kind(of: entry) {
                case .regular?:
                    result.entries.append(entry)
                case nil:
                    result.missing.append(entry)
                case let other?:
                    result.problems.append("'\(entry.printable)' is \(other), not a sound file")
                }
            }
            result.cap()
            return result
        }
    }

    private static func folder(_ path: String) -> SoundCollection {
        var result = SoundCollection(kind: .folder, path: path, entries: [], problems: [], ignored: 0)
        result.readable = access(path, R_OK | X_OK) == 0
        let base = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        for name in SoundList.sortedNames(DirectoryListing.names(in: path)) where !name.hasPrefix(".") {
            guard SoundList.isSoundName(name) else {
                result.ignored += 1
                continue
            }
            let full = base == "/" ? "/" + name : base + "/" + name
            if RegularFile.kind(of: full) == .regular { result.entries.append(full) }
        }
        result.cap()
        return result
    }

    private mutating func cap() {
        guard entries.count > SoundList.maxEntries else { return }
        problems.append("only the first \(SoundList.maxEntries) of its \(entries.count) files are used")
        entries = Array(entries.prefix(SoundList.maxEntries))
    }

    /// What a folder with no entries (or a list with none usable) is refused or warned with.
    public var emptyReason: String {
        switch kind {
        case .folder where !readable:
            return "cannot read the folder '\(path.printable)': permission denied; make it readable"
        case .folder:
            return "the folder '\(path.printable)' holds no sound files (looked for ."
                + SoundList.extensions.joined(separator: ", .") + ")"
        default:
            return "the list '\(path.printable)' names no sound file that exists"
        }
    }

    /// `folder 'DIR'` or `list 'LIST.m3u'`, for messages.
    public var described: String { (kind == .folder ? "folder" : "list") + " '\(path.printable)'" }
}
