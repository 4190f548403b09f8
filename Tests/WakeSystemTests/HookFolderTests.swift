import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeSystem
@testable import WakeTestSupport

/// The hooks folder as ssh's StrictModes judges it (issue 53): what runs, in which order, what
/// is left alone, and each refusal with the line a user reads. The tests run as root, so
/// "another user" is uid 65534 (nobody).
@Suite("Hooks: the folder's listing and StrictModes")
struct HookFolderTests {
    static let script = Array("#!/bin/sh\nexit 0\n".utf8)

    /// A test directory (mode 700, root's) with an empty `hooks.d` (mode 755) in it.
    static func folder() throws -> (TestDirectory, String) {
        let dir = try TestDirectory("wake-hookfolder")
        let hooks = dir.file("hooks.d")
        guard mkdir(hooks, 0o755) == 0 else { throw WakeTestError("mkdir \(hooks): errno \(errno)") }
        return (dir, hooks)
    }

    static func hook(_ dir: TestDirectory, _ name: String, mode: mode_t = 0o755) throws -> String {
        try dir.write("hooks.d/" + name, script, mode: mode)
    }

    static func entries(_ listing: HookFolder.Listing) -> [HookFolder.Entry] {
        guard case .entries(let e) = listing else { Issue.record("not a listing: \(listing)"); return [] }
        return e
    }

    @Test("byte order of the names (not String order), non-executables kept as such, leftovers and subfolders not listed")
    func listing() throws {
        let (dir, hooks) = try Self.folder()
        // "e\u{301}x" (e, combining acute) sorts before "éa" by bytes (0x65 < 0xC3); Swift's
        // String order, on the canonical form, would put "éa" first.
        let runs = ["10-lamp", "9-music", "B", "a", "e\u{301}x", "éa"]
        for name in runs.shuffled() { _ = try Self.hook(dir, name) }
        _ = try Self.hook(dir, "README", mode: 0o644)
        for name in [".hidden", "lamp~", "lamp.dpkg-old", "lamp.dpkg-dist", "lamp.swp", "lamp.rpmsave"] { _ = try Self.hook(dir, name) }
        #expect(mkdir(hooks + "/sub", 0o755) == 0)

        let listing = HookFolder.list(hooks)
        let expected = ["10-lamp", "9-music", "B", "README", "a", "e\u{301}x", "éa"].map { name in
            HookFolder.Entry(path: hooks + "/" + name, verdict: name == "README" ? .notExecutable : .runs)
        }
        // Compared byte for byte: String equality would take the two spellings of é as one.
        #expect(Self.entries(listing).map { Array($0.path.utf8) } == expected.map { Array($0.path.utf8) })
        #expect(Self.entries(listing).map(\.verdict) == expected.map(\.verdict))
        #expect(listing.runnable.map { Array($0.utf8) } == runs.map { Array((hooks + "/" + $0).utf8) })
        #expect(Self.entries(listing).first?.name == "10-lamp")
    }

    @Test("no folder: no hooks, nothing said; an empty one: none either")
    func absentOrEmpty() throws {
        let (dir, hooks) = try Self.folder()
        #expect(HookFolder.list(dir.file("none")) == .absent)
        #expect(HookFolder.list(dir.file("none")).runnable == [])
        #expect(HookFolder.list(hooks) == .entries([]))
    }

    @Test("a hook file its group or others can write, or another user's, is refused with the mode or uid and the fix")
    func fileRefused() throws {
        let (dir, hooks) = try Self.folder()
        _ = try Self.hook(dir, "group", mode: 0o775)
        _ = try Self.hook(dir, "world", mode: 0o757)
        // Not executable but writable by others: still refused (made executable, it would run).
        _ = try Self.hook(dir, "open-text", mode: 0o666)
        let theirs = try Self.hook(dir, "theirs")
        #expect(chown(theirs, 65534, 65534) == 0)
        _ = try Self.hook(dir, "mine")

        #expect(Self.entries(HookFolder.list(hooks)) == [
            .init(path: hooks + "/group",
                  verdict: .unsafe("hook '\(hooks)/group' can be written by others (mode 775), so it is not run; chmod go-w it")),
            .init(path: hooks + "/mine", verdict: .runs),
            .init(path: hooks + "/open-text",
                  verdict: .unsafe("hook '\(hooks)/open-text' can be written by others (mode 666), so it is not run; chmod go-w it")),
            .init(path: hooks + "/theirs",
                  verdict: .unsafe("hook '\(hooks)/theirs' belongs to another user (uid 65534), so it is not run; chown it to yourself")),
            .init(path: hooks + "/world",
                  verdict: .unsafe("hook '\(hooks)/world' can be written by others (mode 757), so it is not run; chmod go-w it")),
        ])
        #expect(HookFolder.list(hooks).runnable == [hooks + "/mine"])
    }

    @Test("a hooks folder its group or others can write, or another user's: nothing in it runs, and the folder is named",
          arguments: [(mode_t(0o775), "can be written by others (mode 775), so it is not run; chmod go-w it"),
                      (mode_t(0o757), "can be written by others (mode 757), so it is not run; chmod go-w it"),
                      (mode_t(0o1777), "can be written by others (mode 1777), so it is not run; chmod go-w it")])
    func folderRefused(mode: mode_t, why: String) throws {
        let (dir, hooks) = try Self.folder()
        _ = try Self.hook(dir, "lamp")
        #expect(chmod(hooks, mode) == 0)
        #expect(HookFolder.list(hooks) == .unsafe("the hooks folder '\(hooks)' " + why))
        #expect(HookFolder.list(hooks).runnable == [])
    }

    @Test("another user's hooks folder, and one that is a file, are refused")
    func folderOwnerOrKind() throws {
        let (dir, hooks) = try Self.folder()
        _ = try Self.hook(dir, "lamp")
        #expect(chown(hooks, 65534, 65534) == 0)
        #expect(HookFolder.list(hooks)
                == .unsafe("the hooks folder '\(hooks)' belongs to another user (uid 65534), so it is not run; chown it to yourself"))
        let file = try dir.write("hooks-file", Self.script, mode: 0o755)
        #expect(HookFolder.list(file) == .unsafe("the hooks folder '\(file)' is not a folder; remove it or make it one"))
    }

    @Test("the folder holding hooks.d writable by others, or another user's: refused, that folder named")
    func parentRefused() throws {
        let (dir, hooks) = try Self.folder()
        _ = try Self.hook(dir, "lamp")
        #expect(chmod(dir.path, 0o777) == 0)
        #expect(HookFolder.list(hooks) == .unsafe("the folder holding the hooks '\(dir.path)' can be written by others (mode 777), "
                                                  + "so it is not run; chmod go-w it"))
        #expect(chmod(dir.path, 0o755) == 0 && chown(dir.path, 65534, 65534) == 0)
        #expect(HookFolder.list(hooks) == .unsafe("the folder holding the hooks '\(dir.path)' belongs to another user (uid 65534), "
                                                  + "so it is not run; chown it to yourself"))
        #expect(chown(dir.path, 0, 0) == 0)
        #expect(HookFolder.list(hooks).runnable == [hooks + "/lamp"])
    }

    @Test("a symlink is judged by the file it names (its mode and owner); one that names nothing is refused as unreadable")
    func symlinks() throws {
        let (dir, hooks) = try Self.folder()
        let safe = try dir.write("safe", Self.script, mode: 0o755)
        let open = try dir.write("open", Self.script, mode: 0o775)
        #expect(symlink(safe, hooks + "/10-safe") == 0)
        #expect(symlink(open, hooks + "/20-open") == 0)
        #expect(symlink(dir.file("gone"), hooks + "/30-dangling") == 0)
        #expect(Self.entries(HookFolder.list(hooks)) == [
            .init(path: hooks + "/10-safe", verdict: .runs),
            .init(path: hooks + "/20-open", verdict: .unsafe("hook '\(hooks)/20-open' can be written by others (mode 775), "
                                                             + "so it is not run; chmod go-w it")),
            .init(path: hooks + "/30-dangling", verdict: .unsafe("hook '\(hooks)/30-dangling' cannot be read (No such file or directory); "
                                                                 + "fix or remove it")),
        ])
    }

    @Test("check(program:): a --hook's program runs, is not executable, or is refused as a folder's file is")
    func checkProgram() throws {
        let (dir, _) = try Self.folder()
        #expect(HookFolder.check(program: "/bin/sh") == .runs)
        #expect(HookFolder.check(program: try dir.write("lamp", Self.script, mode: 0o755)) == .runs)
        #expect(HookFolder.check(program: try dir.write("text", Self.script, mode: 0o644)) == .notExecutable)
        let open = try dir.write("open", Self.script, mode: 0o775)
        #expect(HookFolder.check(program: open)
                == .unsafe("hook '\(open)' can be written by others (mode 775), so it is not run; chmod go-w it"))
        let theirs = try dir.write("theirs", Self.script, mode: 0o755)
        #expect(chown(theirs, 65534, 65534) == 0)
        #expect(HookFolder.check(program: theirs)
                == .unsafe("hook '\(theirs)' belongs to another user (uid 65534), so it is not run; chown it to yourself"))
        #expect(HookFolder.check(program: dir.file("gone"))
                == .unsafe("hook program '\(dir.file("gone"))' cannot be read (No such file or directory)"))
    }

    @Test("resolve: the first executable of that name on PATH, as execvp; a name with a slash as it is; none: nil")
    func resolveOnPath() throws {
        let dir = try TestDirectory("wake-hookpath")
        for d in ["one", "two", "three"] { #expect(mkdir(dir.file(d), 0o755) == 0) }
        _ = try dir.write("one/lamp", Self.script, mode: 0o644)  // not executable: passed over
        #expect(mkdir(dir.file("one/music"), 0o755) == 0)  // a folder of that name: passed over
        let lamp = try dir.write("two/lamp", Self.script, mode: 0o755)
        _ = try dir.write("three/lamp", Self.script, mode: 0o755)
        let music = try dir.write("three/music", Self.script, mode: 0o755)
        let path = [dir.file("one"), dir.file("two"), dir.file("three")].joined(separator: ":")

        #expect(HookFolder.resolve("lamp", path: path) == lamp)
        #expect(HookFolder.resolve("music", path: path) == music)
        #expect(HookFolder.resolve("coffee", path: path) == nil)
        #expect(HookFolder.resolve("sh", path: nil) != nil, "the default PATH has sh")
        #expect(HookFolder.resolve(music, path: "") == music)
        #expect(HookFolder.resolve(dir.file("two/none"), path: path) == nil)
    }

    @Test("resolve: a relative name is made absolute against wake's folder, since the hook starts in the home folder")
    func resolveRelative() throws {
        let dir = try TestDirectory("wake-hookpath")
        let lamp = try dir.write("lamp", Self.script, mode: 0o755)
        let cwd = String(cString: try #require(getcwd(nil, 0)))  // (leaked: a few bytes, once)
        // The same file, named from the working directory without changing it (other tests run beside).
        let up = String(repeating: "../", count: cwd.split(separator: "/").count)
        let relative = up + lamp.dropFirst()
        let resolved = HookFolder.resolve(relative, path: nil)
        #expect(resolved == (cwd == "/" ? "" : cwd) + "/" + relative)
        #expect(resolved.map { access($0, X_OK) } == 0)
    }
}
