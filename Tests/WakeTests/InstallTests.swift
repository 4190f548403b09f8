import Foundation
import Glibc
import Testing
import WakeSystem
@testable import WakeTestSupport

/// Issue 17, the installation half: `make install` / `make uninstall` / `make deb`, the man page
/// and the completion scripts.
///
/// `make install` and `make deb` ship the release binary, which `make test` builds before the
/// suite runs. These tests use it as it is and never build it: `swift test` holds SwiftPM's lock
/// on .build while tests run, so a `swift build` started by a test would wait forever. They
/// pass NO_BUILD=1, and make fails, saying to run `make release`, when the binary is older than
/// a source. One staged install and one package serve every test that only reads them.

/// Tools these tests drive, and the package's files.
enum InstallTools {
    static let make = "/usr/bin/make"
    static let bash = "/bin/bash"
    static let man = "/usr/bin/man"
    static let groff = "/usr/bin/groff"
    static let dpkgDeb = "/usr/bin/dpkg-deb"
    static let dpkgShlibdeps = "/usr/bin/dpkg-shlibdeps"
    static let lintian = "/usr/bin/lintian"
    static let readelf = "/usr/bin/readelf"
    static let getcap = "/usr/sbin/getcap"
    static let setcap = "/usr/sbin/setcap"

    static func has(_ tool: String) -> Bool { access(tool, X_OK) == 0 }
    static var canPackage: Bool { [make, dpkgDeb, dpkgShlibdeps, lintian, readelf].allSatisfy(has) }

    static let manPage = packageRoot + "/Resources/wake.1"
    static let mainSwift = packageRoot + "/Sources/WakeCommandLine/WakeMain.swift"
    static let exitStatusSwift = packageRoot + "/Sources/WakeCommandLine/ExitCode.swift"

    static func read(_ path: String) throws -> String {
        guard let d = FileManager.default.contents(atPath: path) else { throw WakeTestError("cannot read \(path)") }
        return String(decoding: d, as: UTF8.self)
    }

    /// `make -C <package> NO_BUILD=1 TARGET VAR=VALUE...`: never a build (see above).
    @discardableResult
    static func runMake(_ arguments: [String], directory: TestDirectory, timeout: Duration = .seconds(300)) async throws -> ProcessResult {
        let p = try ChildProcess(make, ["-C", packageRoot, "--no-print-directory", "NO_BUILD=1"] + arguments,
                                 environment: ["MAKEFLAGS": ""], directory: directory)
        let r = await p.wait(timeout: timeout)
        guard r.exitCode == 0 else { throw WakeTestError("make \(arguments.joined(separator: " ")) failed: \(r)") }
        return r
    }

    /// Runs a shell command line to completion (`sh -c`), whatever its exit code.
    static func sh(_ script: String, _ arguments: [String] = [], timeout: Duration = .seconds(60)) async throws -> ProcessResult {
        try await ChildProcess("/bin/sh", ["-c", script, "sh"] + arguments).wait(timeout: timeout)
    }

    /// Every regular file and symbolic link under `root`, relative to it, with its permission bits.
    static func files(under root: String) -> [String: mode_t] {
        var result: [String: mode_t] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return result }
        while let rel = walker.nextObject() as? String {
            var st = stat()
            guard lstat(root + "/" + rel, &st) == 0, st.st_mode & S_IFMT != S_IFDIR else { continue }
            result[rel] = st.st_mode & 0o7777
        }
        return result
    }

    static func mode(_ path: String) -> mode_t? {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : nil
    }
}

/// What one `make install DESTDIR=...` (or one `make deb`) left, shared by the tests that read it.
actor InstallFixture {
    static let shared = InstallFixture()

    struct Staged: Sendable {
        let directory: TestDirectory
        /// The DESTDIR.
        let root: String
        let makeOutput: String
    }

    struct Package: Sendable {
        let directory: TestDirectory
        let deb: String
        let makeOutput: String
    }

    private var staged: Task<Staged, Error>?
    private var package: Task<Package, Error>?

    /// `make install DESTDIR=<tmp>/stage` with the default PREFIX, once.
    func install() async throws -> Staged {
        if staged == nil {
            staged = Task {
                let dir = try TestDirectory("wake-install")
                let root = dir.file("stage")
                let r = try await InstallTools.runMake(["install", "DESTDIR=\(root)"], directory: dir)
                return Staged(directory: dir, root: root, makeOutput: r.stdout + r.stderr)
            }
        }
        return try await staged!.value
    }

    /// `make deb` into a directory of its own, once (it runs lintian --fail-on error itself).
    func deb() async throws -> Package {
        if package == nil {
            package = Task {
                let dir = try TestDirectory("wake-deb")
                let r = try await InstallTools.runMake(["deb", "DEBDIR=\(dir.path)", "DEB_WORK=\(dir.file("work"))"], directory: dir)
                let debs = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".deb") }
                guard debs.count == 1 else { throw WakeTestError("make deb left \(debs) in \(dir.path)") }
                return Package(directory: dir, deb: dir.file(debs[0]), makeOutput: r.stdout + r.stderr)
            }
        }
        return try await package!.value
    }
}

/// The version the binary reports, from the one place it is written (WakeVersion).
func wakeVersionFromSource() throws -> String {
    let text = try InstallTools.read(packageRoot + "/Sources/WakeCommandLine/Commands/WakeCommand.swift")
    guard let m = text.firstMatch(of: /static let string = "wake ([0-9][^"]*)"/) else {
        throw WakeTestError("no WakeVersion.string in WakeCommand.swift")
    }
    return String(m.1)
}

/// All of issue 17's installation tests, one at a time (make and lintian are heavy on 2 cores).
@Suite("Installation (issue 17)", .serialized)
struct InstallTests {}

// MARK: - make install / uninstall

extension InstallTests {
    @Suite("make install and make uninstall")
    struct MakeInstall {
        /// Every file `make install` puts under DESTDIR with the default PREFIX (/usr/local), and its mode.
        static let expected: [String: mode_t] = [
            "usr/local/bin/wake": 0o755,
            "usr/local/libexec/wake/wake-alarm-timer": 0o755,
            "usr/local/share/man/man1/wake.1.gz": 0o644,
            "usr/local/share/doc/wake/README.md": 0o644,
            "usr/local/share/doc/wake/docs/guide.md": 0o644,
            "usr/local/share/doc/wake/docs/packaging.md": 0o644,
            "usr/local/share/doc/wake/examples/hooks/50-home-assistant": 0o755,
            "usr/local/share/doc/wake/examples/hooks/50-lamp": 0o755,
            "usr/local/share/doc/wake/examples/hooks/50-mqtt-next-alarm": 0o755,
            "usr/local/share/doc/wake/examples/hooks/50-music-after-stop": 0o755,
            "usr/local/share/bash-completion/completions/wake": 0o644,
            "usr/local/share/zsh/site-functions/_wake": 0o644,
            "usr/local/share/fish/vendor_completions.d/wake.fish": 0o644,
            "usr/local/lib/systemd/user/wake.service": 0o644,
            "usr/local/share/applications/wake.desktop": 0o644,
            "usr/local/share/icons/hicolor/scalable/apps/wake.svg": 0o644,
            "usr/local/share/dbus-1/services/io.github.wakeclock.Wake1.service": 0o644,
            "usr/local/share/dbus-1/interfaces/io.github.wakeclock.Wake1.xml": 0o644,
            "usr/local/share/metainfo/io.github.wakeclock.wake.metainfo.xml": 0o644,
            "usr/local/share/locale/de/LC_MESSAGES/wake.mo": 0o644,
            "usr/local/share/locale/fr/LC_MESSAGES/wake.mo": 0o644,
        ]

        @Test(.enabled(if: InstallTools.has(InstallTools.make), "needs make"))
        func installPutsEveryFileWithItsModeAndNothingElse() async throws {
            let s = try await InstallFixture.shared.install()
            let found = InstallTools.files(under: s.root)
            #expect(Set(found.keys) == Set(Self.expected.keys), "installed: \(found.keys.sorted())\n\(s.makeOutput)")
            for (file, mode) in Self.expected {
                #expect(found[file] == mode, "\(file): mode \(String(found[file] ?? 0, radix: 8)), expected \(String(mode, radix: 8))")
            }
            // Directories made for it are 0755 whatever the umask.
            for dir in ["usr/local/bin", "usr/local/libexec/wake", "usr/local/share/man/man1", "usr/local/lib/systemd/user",
                        "usr/local/share/doc/wake", "usr/local/share/doc/wake/examples/hooks"] {
                #expect(InstallTools.mode(s.root + "/" + dir) == 0o755, "\(dir)")
            }

            // The man page is the source's, gzipped without a name or time stamp (the same bytes every time).
            let unzipped = try await InstallTools.sh("gzip -dc \"$1\"", [s.root + "/usr/local/share/man/man1/wake.1.gz"])
            #expect(unzipped.stdout == (try InstallTools.read(InstallTools.manPage)))
            let header = try await InstallTools.sh("od -An -tx1 -N8 \"$1\"", [s.root + "/usr/local/share/man/man1/wake.1.gz"])
            #expect(header.stdout.split(whereSeparator: \.isWhitespace).map(String.init).prefix(8) == ["1f", "8b", "08", "00", "00", "00", "00", "00"],
                    "gzip header with a name or an mtime: \(header.stdout)")

            // Completion scripts are the parser's, each for its shell.
            let bash = try InstallTools.read(s.root + "/usr/local/share/bash-completion/completions/wake")
            #expect(bash.contains("complete -o filenames -F _wake wake") && bash.contains("_wake_add()"))
            let zsh = try InstallTools.read(s.root + "/usr/local/share/zsh/site-functions/_wake")
            #expect(zsh.hasPrefix("#compdef wake"))
            let fish = try InstallTools.read(s.root + "/usr/local/share/fish/vendor_completions.d/wake.fish")
            #expect(fish.contains("complete -c 'wake'") && fish.contains("weekdays weekends"))

            // The desktop entry and the icon are the sources', byte for byte; the entry names the
            // icon notifications and media widgets look up, and passes the spec's validator.
            let entry = s.root + "/usr/local/share/applications/wake.desktop"
            #expect(try InstallTools.read(entry) == (try InstallTools.read(packageRoot + "/Resources/wake.desktop")))
            #expect(try InstallTools.read(entry).contains("\nIcon=wake\n"))
            #expect(try InstallTools.read(s.root + "/usr/local/share/icons/hicolor/scalable/apps/wake.svg")
                    == (try InstallTools.read(packageRoot + "/Resources/wake.svg")))
            if InstallTools.has("/usr/bin/desktop-file-validate") {
                let v = try await ChildProcess("/usr/bin/desktop-file-validate", [entry]).wait()
                #expect(v.exitCode == 0 && v.stdout.isEmpty && v.stderr.isEmpty, "\(v)")
            }
            #expect(try InstallTools.read(entry).contains("\nX-GNOME-UsesNotifications=true\n"))

            // The AppStream metainfo (GNOME Software, Discover, `appstreamcli search alarm`): the source's,
            // valid even to the pedantic validator, its release the binary's version.
            let metainfo = s.root + "/usr/local/share/metainfo/io.github.wakeclock.wake.metainfo.xml"
            let text = try InstallTools.read(metainfo)
            #expect(text == (try InstallTools.read(packageRoot + "/Resources/io.github.wakeclock.wake.metainfo.xml")))
            let version = try await ChildProcess(s.root + "/usr/local/bin/wake", ["--version"]).wait()
            let number = version.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "?"
            #expect(text.contains("<release version=\"\(number)\""), "metainfo's release is not \(number): \(version)")
            #expect(text.contains("<binary>wake</binary>") && text.contains("type=\"console-application\""))
            if InstallTools.has("/usr/bin/appstreamcli") {
                let v = try await ChildProcess("/usr/bin/appstreamcli", ["validate", "--no-net", "--pedantic", metainfo]).wait()
                #expect(v.exitCode == 0, "\(v)")
            }

            // The installed binary finds its translations beside its bin, with nothing set but the language.
            let german = ["LANG": "C.UTF-8", "LC_MESSAGES": "C.UTF-8", "LANGUAGE": "de"]
            let refused = try await ChildProcess(s.root + "/usr/local/bin/wake", ["7:99"], environment: german,
                                                 unset: ["WAKE_LOCALEDIR"]).wait()
            #expect(refused.exitCode == 64 && refused.stderr.hasPrefix("wake: ungültige Zeit '7:99': die Minute muss 00-59 sein"),
                    "\(refused)")
        }

        @Test(.enabled(if: InstallTools.has(InstallTools.make), "needs make"))
        func unitStartsTheInstalledBinaryNotTheStagingCopy() async throws {
            let s = try await InstallFixture.shared.install()
            let unit = try InstallTools.read(s.root + "/usr/local/lib/systemd/user/wake.service")
            let execStarts = unit.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
            #expect(execStarts == ["ExecStart=/usr/local/bin/wake daemon"], "\(unit)")
            #expect(!unit.contains(s.root), "DESTDIR leaked into the unit:\n\(unit)")
            // Everything else is the source's unit, line for line.
            let source = try InstallTools.read(packageRoot + "/Resources/wake.service")
            #expect(unit.split(separator: "\n").filter { !$0.hasPrefix("ExecStart=") }
                    == source.split(separator: "\n").filter { !$0.hasPrefix("ExecStart=") })
        }

        @Test(.enabled(if: InstallTools.has(InstallTools.make), "needs make"))
        func installedBinaryRunsFromTheRootDirectory() async throws {
            let s = try await InstallFixture.shared.install()
            let r = try await InstallTools.sh("cd / && exec \"$1\" --version", [s.root + "/usr/local/bin/wake"])
            let version = try wakeVersionFromSource()
        #expect(r.exitCode == 0 && r.stdout == "wake \(version)\n", "\(r)")
            // It needs nothing next to it or in the toolchain: no RUNPATH, no Swift runtime libraries.
            let ldd = try await InstallTools.sh("ldd \"$1\"", [s.root + "/usr/local/bin/wake"])
            #expect(ldd.exitCode == 0 && !ldd.stdout.contains("not found") && !ldd.stdout.contains("libswift"), "\(ldd)")
            // libstdc++ and libgcc are linked in too (packaging/link): a start loads neither.
            #expect(!ldd.stdout.contains("libstdc++") && !ldd.stdout.contains("libgcc_s"), "\(ldd)")
            let dyn = try await InstallTools.sh("readelf -d \"$1\"", [s.root + "/usr/local/bin/wake"])
            #expect(!dyn.stdout.contains("RUNPATH") && !dyn.stdout.contains("RPATH"), "\(dyn.stdout)")
            #expect(dyn.stdout.contains("BIND_NOW") || dyn.stdout.contains("Flags: NOW"), "not linked with -z now:\n\(dyn.stdout)")
        }

        @Test(.enabled(if: InstallTools.has(InstallTools.make), "needs make"))
        func uninstallRemovesExactlyWhatInstallPutThere() async throws {
            let dir = try TestDirectory("wake-uninstall")
            let root = dir.file("stage")
            // Someone else's files in the same directories must survive.
            try FileManager.default.createDirectory(atPath: root + "/usr/local/bin", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/usr/local/share/man/man1", withIntermediateDirectories: true)
            _ = try dir.write("stage/usr/local/bin/other", Array("#!/bin/sh\n".utf8))
            _ = try dir.write("stage/usr/local/share/man/man1/other.1.gz", [])

            try await InstallTools.runMake(["install", "DESTDIR=\(root)"], directory: dir)
            let installed = Set(InstallTools.files(under: root).keys)
            #expect(installed == Set(Self.expected.keys).union(["usr/local/bin/other", "usr/local/share/man/man1/other.1.gz"]))

            let r = try await InstallTools.runMake(["uninstall", "DESTDIR=\(root)"], directory: dir)
            let left = Set(InstallTools.files(under: root).keys)
            #expect(left == ["usr/local/bin/other", "usr/local/share/man/man1/other.1.gz"], "left behind: \(left.sorted())\n\(r)")
            // wake's own documentation and libexec directories go with their files; shared ones stay.
            #expect(!FileManager.default.fileExists(atPath: root + "/usr/local/share/doc/wake"))
            #expect(!FileManager.default.fileExists(atPath: root + "/usr/local/libexec/wake"))
            #expect(FileManager.default.fileExists(atPath: root + "/usr/local/bin"))

            // A second uninstall, with nothing there, is not an error.
            try await InstallTools.runMake(["uninstall", "DESTDIR=\(root)"], directory: dir)
        }

        /// Issue 23: a staged install (DESTDIR) leaves the capability to the packaging.
        @Test(.enabled(if: InstallTools.has(InstallTools.make) && InstallTools.has(InstallTools.getcap), "needs make and getcap (libcap2-bin)"))
        func aStagedHelperHasNoCapability() async throws {
            let s = try await InstallFixture.shared.install()
            let r = try await ChildProcess(InstallTools.getcap, [s.root + "/usr/local/libexec/wake/wake-alarm-timer"]).wait()
            #expect(r.exitCode == 0 && r.stdout.isEmpty, "\(r)")
        }

        /// Issue 23: `make install` as root without DESTDIR gives the helper CAP_WAKE_ALARM, and
        /// only the helper; `make uninstall` takes it away with the file. Issue 37: the helper is
        /// root's, 0755, in no group: its policy is inside it, and the installed one refuses
        /// an account not logged in at a seat.
        @Test(.enabled(if: geteuid() == 0 && InstallTools.has(InstallTools.make) && InstallTools.has(InstallTools.getcap) && HelperFixture.enabled,
                       "needs root, make, getcap (libcap2-bin), setpriv and python3"))
        func installAsRootGivesTheHelperTheCapabilityAndUninstallTakesItAway() async throws {
            let dir = try TestDirectory("wake-install-root")
            let prefix = dir.file("prefix")
            try await InstallTools.runMake(["install", "PREFIX=\(prefix)"], directory: dir)
            let helper = prefix + "/libexec/wake/wake-alarm-timer"
            let caps = try await InstallTools.sh("\(InstallTools.getcap) -r \"$1\"", [prefix])
            #expect(caps.stdoutLines == ["\(helper) cap_wake_alarm=ep"], "\(caps)")
            try await Self.expectThePolicy(of: helper, in: dir)
            // The installed wake finds it: ../libexec/wake from its own directory.
            #expect(AlarmTimerHelper.candidates(executable: prefix + "/bin/wake")[1] == helper)

            try await InstallTools.runMake(["uninstall", "PREFIX=\(prefix)"], directory: dir)
            #expect(!FileManager.default.fileExists(atPath: helper))
            let after = try await InstallTools.sh("\(InstallTools.getcap) -r \"$1\"", [prefix])
            #expect(after.stdout.isEmpty, "\(after)")
        }

        /// The installed helper (`make install`'s, or the package's after its postinst): root's,
        /// 0755, and it gives nobody (a system account) and uid 4343 (no login at a seat here:
        /// no logind record, or no logind at all) no timer, each told why.
        static func expectThePolicy(of helper: String, in dir: TestDirectory) async throws {
            var st = stat()
            #expect(stat(helper, &st) == 0 && st.st_uid == 0 && st.st_gid == 0 && st.st_mode & 0o7777 == 0o755,
                    "\(helper): uid \(st.st_uid) gid \(st.st_gid) mode \(String(st.st_mode & 0o7777, radix: 8))")
            // It reads logind's own records, not a test's (WAKE_LOGIND_USERS_DIR is the tests' build setting only).
            let bytes = try Data(contentsOf: URL(fileURLWithPath: helper))
            #expect(bytes.range(of: Data("/run/systemd/users\0".utf8)) != nil, "\(helper) does not read /run/systemd/users")
            chmod(dir.path, 0o755)
            let client = try dir.write("alarm_timer_client.py", try Data(contentsOf: URL(fileURLWithPath: HelperFixture.client)))
            let nobody = try await HelperFixture.runClient([client, helper, "arm", "R", "200"], directory: dir, as: HelperFixture.asNobody)
            #expect(nobody["answer"] as? [Int] == [Int(EACCES), 1] && nobody["exit"] as? Int == 77, "\(nobody)")
            #expect((nobody["stderr"] as? String)?.contains("uid 65534 may not wake this machine: a system account") == true, "\(nobody)")
            let seatless = try await HelperFixture.runClient([client, helper, "arm", "R", "200"], directory: dir,
                                                             as: HelperFixture.asUser(HelperFixture.seatless))
            let answer = seatless["answer"] as? [Int] ?? []
            #expect((answer == [Int(EACCES), 2] || answer == [Int(EACCES), 3]) && seatless["exit"] as? Int == 77, "\(seatless)")
        }
    }
}

// MARK: - The man page

extension InstallTests {
    @Suite("The man page")
    struct ManPage {
        /// Each command's options as its --help lists them: long (`--days`) and short (`-s`);
        /// `subcommand` may be a group's with its own (`holidays import`).
        static func helpOptions(_ subcommand: String?) async throws -> Set<String> {
            let r = try await WakeProcess.run((subcommand.map { $0.split(separator: " ").map(String.init) } ?? []) + ["--help"])
            guard r.exitCode == 0 else { throw WakeTestError("wake \(subcommand ?? "") --help: \(r)") }
            var options = Set<String>()
            var inOptions = false
            for line in r.stdoutLines {
                if line.hasSuffix(":") && !line.hasPrefix(" ") { inOptions = line == "OPTIONS:"; continue }
                // "  -s, --sound <sound>     Sound file..." : the names are in the first column.
                guard inOptions, line.hasPrefix("  -") else { continue }
                let column = line.dropFirst(2).components(separatedBy: "  ")[0]
                // A name that fills the column leaves one space before its help: only '-' words are names.
                for spelling in column.components(separatedBy: ", ") {
                    guard let name = spelling.split(separator: " ").first, name.hasPrefix("-") else { continue }
                    options.insert(String(name))
                }
            }
            guard !options.isEmpty else { throw WakeTestError("no options found in:\n\(r.stdout)") }
            return options
        }

        /// The subcommands `WakeMain.run` dispatches by their first word (before its `holidays`,
        /// which dispatches by the second).
        static func dispatchedSubcommands() throws -> [String] {
            let run = try InstallTools.read(InstallTools.mainSwift).components(separatedBy: "static func holidays(")[0]
            return run.matches(of: /\n {8}case "([a-z]+)":/).map { String($0.1) }
        }

        /// A group's subcommands, as its --help lists them (`import` and `list` of `holidays`);
        /// their options belong in the group's part of the page.
        static func nestedSubcommands(of subcommand: String) async throws -> [String] {
            let r = try await WakeProcess.run([subcommand, "--help"])
            guard let start = r.stdoutLines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
            return r.stdoutLines[(start + 1)...].prefix { $0.hasPrefix("  ") }
                .compactMap { $0.hasPrefix("   ") ? nil : $0.split(separator: " ").first.map { "\(subcommand) \($0)" } }
        }

        /// A subcommand's options with those of its own subcommands.
        static func allHelpOptions(_ subcommand: String) async throws -> Set<String> {
            var options = try await helpOptions(subcommand)
            for nested in try await nestedSubcommands(of: subcommand) { options.formUnion(try await helpOptions(nested)) }
            return options
        }

        /// The page's lines from a `.Sh`/`.Ss` heading to the next heading of the same or a higher level.
        static func block(_ page: [Substring], heading: String) -> [Substring] {
            guard let start = page.firstIndex(of: Substring(heading)) else { return [] }
            let level = heading.hasPrefix(".Sh") ? [".Sh "] : [".Sh ", ".Ss "]
            let end = page[(start + 1)...].firstIndex { line in level.contains { line.hasPrefix($0) } } ?? page.endIndex
            return Array(page[start..<end])
        }

        /// The options an mdoc block names with `Fl` (`.It Fl s Ar FILE , Fl -sound Ar FILE`), as
        /// `-s` and `--sound`; `itemsOnly` keeps those on `.It` lines.
        static func flags(in lines: [Substring], itemsOnly: Bool = false) -> Set<String> {
            var result = Set<String>()
            for line in lines where line.hasPrefix(".") && (!itemsOnly || line.hasPrefix(".It ")) {
                let words = line.dropFirst().split(separator: " ")
                for (i, w) in words.enumerated() where w == "Fl" && i + 1 < words.count {
                    result.insert("-" + words[i + 1])
                }
            }
            return result
        }

        static func page() throws -> [Substring] {
            try InstallTools.read(InstallTools.manPage).split(separator: "\n", omittingEmptySubsequences: false)
        }

        @Test func everyOptionOfWakeIsAnItemUnderOptions() async throws {
            let page = try Self.page()
            let documented = Self.flags(in: Self.block(page, heading: ".Sh OPTIONS"), itemsOnly: true)
            let options = try await Self.helpOptions(nil)
            let missing = options.subtracting(documented)
            #expect(missing.isEmpty, "wake.1 does not document \(missing.sorted()) of 'wake WHEN': add an '.It Fl ...' item under .Sh OPTIONS")
        }

        @Test func everySubcommandHasASectionNamingEachOfItsOptions() async throws {
            let page = try Self.page()
            let subcommands = try Self.dispatchedSubcommands()
            #expect(subcommands.count >= 9, "WakeMain.swift's subcommands: \(subcommands)")
            for sub in subcommands {
                let block = Self.block(page, heading: ".Ss wake \(sub)")
                #expect(!block.isEmpty, "wake.1 has no '.Ss wake \(sub)' under COMMANDS")
                guard sub != "help" else { continue }
                let missing = try await Self.allHelpOptions(sub).subtracting(["-h", "--help"]).subtracting(Self.flags(in: block))
                #expect(missing.isEmpty, "wake.1 does not document \(missing.sorted()) of 'wake \(sub)': name them under '.Ss wake \(sub)'")
            }
        }

        @Test func everyOptionThePageNamesExists() async throws {
            var all = try await Self.helpOptions(nil)
            for sub in try Self.dispatchedSubcommands() where sub != "help" { all.formUnion(try await Self.allHelpOptions(sub)) }
            let named = Self.flags(in: try Self.page())
            let unknown = named.subtracting(all)
            #expect(unknown.isEmpty, "wake.1 names options no command has: \(unknown.sorted())")
        }

        @Test func everyExitStatusHasAnItem() throws {
            let source = try InstallTools.read(InstallTools.exitStatusSwift)
            let codes = Set(source.matches(of: /static let \w+: Int32 = (\d+)/).map { String($0.1) })
            #expect(codes.count >= 10, "\(codes)")
            let items = Set(Self.block(try Self.page(), heading: ".Sh EXIT STATUS").filter { $0.hasPrefix(".It ") }.map { String($0.dropFirst(4)) })
            #expect(codes.subtracting(items).isEmpty, "EXIT STATUS lacks \(codes.subtracting(items).sorted())")
            #expect(items.contains("128 + Ar n"))
        }

        @Test func filesEnvironmentAndTheRulesAreThere() throws {
            let page = try Self.page()
            let files = Self.block(page, heading: ".Sh FILES").joined(separator: "\n")
            for f in ["wake/config.toml", "wake/alarms.toml", "wake/history.toml", "$XDG_RUNTIME_DIR/wake/", "wake.service"] {
                #expect(files.contains(f), "FILES lacks \(f)")
            }
            let environment = Self.block(page, heading: ".Sh ENVIRONMENT").joined(separator: "\n")
            for v in ["TZ", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "ALSA_CONFIG_PATH"] {
                #expect(environment.contains(".It Ev \(v)\n"), "ENVIRONMENT lacks \(v)")
            }
            for heading in [".Sh TIME FORMS", ".Sh DAYLIGHT SAVING TIME", ".Sh EXAMPLES", ".Sh SEE ALSO"] {
                #expect(!Self.block(page, heading: heading).isEmpty, "no \(heading)")
            }
            // The days --days takes, as the completion offers them.
            let add = Self.block(page, heading: ".Ss wake add").joined(separator: "\n")
            for d in ["daily", "weekdays", "weekends", "mon", "sun", "mon-fri", "mon,wed,fri"] {
                #expect(add.contains("Cm \(d)"), "wake add's --days lacks \(d)")
            }
        }

        @Test(.enabled(if: InstallTools.has(InstallTools.groff), "needs groff (apt-get install groff-base)"))
        func rendersWithoutAWarningInGroff() async throws {
            let r = try await ChildProcess(InstallTools.groff, ["-ww", "-mandoc", "-z", InstallTools.manPage]).wait()
            #expect(r.exitCode == 0 && r.stderr.isEmpty && r.stdout.isEmpty, "\(r)")
        }

        @Test(.enabled(if: InstallTools.has(InstallTools.man), "needs man (apt-get install man-db)"))
        func rendersWithoutAWarningInMan() async throws {
            // As lintian checks it: man --warnings at 80 columns. (Much narrower, groff warns that it
            // cannot break the longest paths, as it would for any page that names them.)
            let r = try await ChildProcess(InstallTools.man, ["--warnings", "-l", InstallTools.manPage],
                                           environment: ["MANWIDTH": "80", "LC_ALL": "C.UTF-8"]).wait()
            #expect(r.exitCode == 0 && r.stderr.isEmpty, "\(r.stderr)")
            #expect(r.stdout.contains("EXIT STATUS") && r.stdout.contains("DAYLIGHT SAVING TIME"), "\(r.stdout)")
        }
    }
}

// MARK: - Completions and the command tree

extension InstallTests {
    @Suite("Shell completion and the command tree")
    struct Completion {
        /// What the generated bash function offers for a command line whose last word is being completed.
        static func bashOffers(_ script: String, _ words: [String]) async throws -> [String] {
            let driver = """
                source "$1"; shift
                COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                _wake wake "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let r = try await ChildProcess(InstallTools.bash, ["-c", driver, "bash", script] + words).wait()
            guard r.exitCode == 0, r.stderr.isEmpty else { throw WakeTestError("bash completion of \(words): \(r)") }
            return r.stdoutLines.filter { !$0.isEmpty }.sorted()
        }

        static func generatedScript(_ shell: String, in dir: TestDirectory) async throws -> String {
            let r = try await WakeProcess.run(["--generate-completion-script", shell])
            guard r.exitCode == 0, !r.stdout.isEmpty else { throw WakeTestError("--generate-completion-script \(shell): \(r)") }
            return try dir.write("wake.\(shell)", Array(r.stdout.utf8))
        }

        @Test(.enabled(if: InstallTools.has(InstallTools.bash), "needs bash"))
        func bashOffersTheDaysTheSubcommandsAndTheirOptions() async throws {
            let dir = try TestDirectory()
            let script = try await Self.generatedScript("bash", in: dir)
            #expect(try await Self.bashOffers(script, ["wake", "add", "07:00", "--days", "we"]) == ["wed", "weekdays", "weekends"])
            #expect(try await Self.bashOffers(script, ["wake", "add", "--days", ""])
                    == ["daily", "fri", "mon", "sat", "sun", "thu", "tue", "wed", "weekdays", "weekends"])
            let subcommands = try await Self.bashOffers(script, ["wake", ""]).filter { !$0.hasPrefix("-") }
            #expect(Set(subcommands) == Set(try ManPage.dispatchedSubcommands()), "\(subcommands)")
            #expect(try await Self.bashOffers(script, ["wake", "st"]) == ["stop"])
            #expect(try await Self.bashOffers(script, ["wake", "add", "07:00", "--na"]) == ["--name"])
            #expect(try await Self.bashOffers(script, ["wake", "daemon", "--inhibit", "r"]) == ["require"])
            #expect(try await Self.bashOffers(script, ["wake", "07:00", "--inhibit", ""]) == ["auto", "off", "require"])
            #expect(try await Self.bashOffers(script, ["wake", "--so"]) == ["--sound"])
            #expect(try await Self.bashOffers(script, ["wake", "holidays", ""]).filter { !$0.hasPrefix("-") } == ["import", "list"])
            #expect(try await Self.bashOffers(script, ["wake", "holidays", "import", "DE", "--y"]) == ["--years"])
            #expect(try await Self.bashOffers(script, ["wake", "next", "--follow", "--format", ""]) == ["i3blocks", "json", "plain", "waybar"])
        }

        @Test(.enabled(if: InstallTools.has(InstallTools.make) && InstallTools.has(InstallTools.bash), "needs make and bash"))
        func theInstalledBashScriptCompletesTheDays() async throws {
            let s = try await InstallFixture.shared.install()
            let script = s.root + "/usr/local/share/bash-completion/completions/wake"
            #expect(try await Self.bashOffers(script, ["wake", "add", "07:00", "--days", "we"]) == ["wed", "weekdays", "weekends"])
        }

        /// The tree the scripts come from must be the command line WakeMain runs: the same
        /// subcommands, and at the root exactly the options `wake --help` lists.
        @Test func theCompletionTreeMatchesWhatMainDispatches() async throws {
            let r = try await WakeProcess.run(["--experimental-dump-help"])
            #expect(r.exitCode == 0, "\(r)")
            struct Dump: Decodable {
                struct Name: Decodable { var kind: String; var name: String }
                struct Argument: Decodable { var kind: String; var names: [Name]? }
                struct Command: Decodable { var commandName: String; var arguments: [Argument]?; var subcommands: [Command]? }
                var command: Command
            }
            let dump = try JSONDecoder().decode(Dump.self, from: Data(r.stdout.utf8))
            let treeSubcommands = Set((dump.command.subcommands ?? []).map(\.commandName))
            #expect(treeSubcommands == Set(try ManPage.dispatchedSubcommands()))

            let rootNames = (dump.command.arguments ?? []).filter { $0.kind != "positional" }.flatMap { $0.names ?? [] }
                .map { ($0.kind == "short" ? "-" : "--") + $0.name }
            let help = try await ManPage.helpOptions(nil)
            #expect(Set(rootNames) == help, """
                WakeCommandTree's root (CommandTree.swift) must offer exactly the options of 'wake --help': \
                missing \(help.subtracting(rootNames).sorted()), extra \(Set(rootNames).subtracting(help).sorted())
                """)

            // Every subcommand's options in the tree are its own (the same types run).
            for sub in dump.command.subcommands ?? [] where sub.commandName != "help" {
                let names = (sub.arguments ?? []).filter { $0.kind != "positional" }.flatMap { $0.names ?? [] }
                    .map { ($0.kind == "short" ? "-" : "--") + $0.name }
                #expect(Set(names).isSuperset(of: try await ManPage.helpOptions(sub.commandName)), "\(sub.commandName)")
            }
        }

        @Test func helpSubcommandPrintsThatSubcommandsHelp() async throws {
            let viaHelp = try await WakeProcess.run(["help", "add"])
            let viaFlag = try await WakeProcess.run(["add", "--help"])
            #expect(viaHelp.exitCode == 0 && viaHelp.stdout == viaFlag.stdout && viaHelp.stdout.contains("--days"), "\(viaHelp)")
            let unknown = try await WakeProcess.run(["help", "bogus"])
            #expect(unknown.exitCode == 64 && unknown.stderrIsOneLine && unknown.stderr.contains("bogus"), "\(unknown)")
        }
    }
}

// MARK: - make deb

extension InstallTests {
    @Suite("make deb")
    struct DebianPackage {
        static let enabled = InstallTools.canPackage

        static func field(_ deb: String, _ name: String) async throws -> String {
            let r = try await ChildProcess(InstallTools.dpkgDeb, ["-f", deb, name]).wait()
            guard r.exitCode == 0 else { throw WakeTestError("dpkg-deb -f \(name): \(r)") }
            return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        @Test(.enabled(if: enabled, "needs make, dpkg-deb, dpkg-shlibdeps, lintian and readelf (make deps-package)"))
        func controlFieldsVersionAndDependencies() async throws {
            let p = try await InstallFixture.shared.deb()
            let version = try wakeVersionFromSource()
            #expect(try await Self.field(p.deb, "Package") == "wake")
            #expect(try await Self.field(p.deb, "Version") == "\(version)-1")
            let arch = try await InstallTools.sh("dpkg --print-architecture").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try await Self.field(p.deb, "Architecture") == arch)
            #expect(URL(fileURLWithPath: p.deb).lastPathComponent == "wake_\(version)-1_\(arch).deb")
            let depends = try await Self.field(p.deb, "Depends")
            let names = Set(depends.components(separatedBy: ", ").map { String($0.split(separator: " ")[0]) })
            // libcap2-bin: the postinst's setcap (issue 23).
            // No libstdc++6 or libgcc-s1: the release link takes them statically (packaging/link).
            #expect(names == ["libasound2", "libsndfile1", "libsystemd0", "libc6", "libcap2-bin"], "Depends: \(depends)")
            #expect(depends.contains("(>= "), "versions from the shlibs files: \(depends)")
            // The packed relocations (DT_RELR) need glibc 2.36, which dpkg-shlibdeps cannot see.
            #expect(depends.contains("libc6 (>= 2.36)"), "Depends: \(depends)")
        }

        @Test(.enabled(if: enabled, "needs make, dpkg-deb, dpkg-shlibdeps, lintian and readelf (make deps-package)"))
        func contentsOwnersDocsAndMd5sums() async throws {
            let p = try await InstallFixture.shared.deb()
            let listing = try await ChildProcess(InstallTools.dpkgDeb, ["-c", p.deb]).wait()
            #expect(listing.exitCode == 0)
            for line in listing.stdoutLines {
                #expect(line.contains(" root/root "), "not owned by root: \(line)")
            }
            let paths = Set(listing.stdoutLines.compactMap { $0.split(separator: " ").last.map { String($0) } })
            for f in ["./usr/bin/wake", "./usr/libexec/wake/wake-alarm-timer", "./usr/share/man/man1/wake.1.gz", "./usr/share/doc/wake/copyright",
                      "./usr/share/doc/wake/changelog.Debian.gz", "./usr/share/doc/wake/README.md",
                      "./usr/share/doc/wake/docs/guide.md", "./usr/share/doc/wake/docs/packaging.md",
                      "./usr/share/doc/wake/examples/hooks/50-mqtt-next-alarm", "./usr/share/doc/wake/examples/hooks/50-music-after-stop",
                      "./usr/share/bash-completion/completions/wake", "./usr/share/zsh/vendor-completions/_wake",
                      "./usr/share/fish/vendor_completions.d/wake.fish", "./usr/lib/systemd/user/wake.service",
                      "./usr/share/applications/wake.desktop", "./usr/share/icons/hicolor/scalable/apps/wake.svg",
                      "./usr/share/dbus-1/services/io.github.wakeclock.Wake1.service",
                      "./usr/share/dbus-1/interfaces/io.github.wakeclock.Wake1.xml",
                      "./usr/share/metainfo/io.github.wakeclock.wake.metainfo.xml",
                      "./usr/share/locale/de/LC_MESSAGES/wake.mo", "./usr/share/locale/fr/LC_MESSAGES/wake.mo"] {
                #expect(paths.contains(f), "\(f) missing from the package:\n\(listing.stdout)")
            }

            let dir = try TestDirectory("wake-deb-x")
            let x = try await ChildProcess(InstallTools.dpkgDeb, ["-R", p.deb, dir.file("x")]).wait()
            #expect(x.exitCode == 0, "\(x)")
            // md5sums covers every file, and each sum is right.
            let check = try await InstallTools.sh("cd \"$1\" && md5sum --quiet -c DEBIAN/md5sums && wc -l < DEBIAN/md5sums", [dir.file("x")])
            let fileCount = InstallTools.files(under: dir.file("x/usr")).count
            #expect(check.exitCode == 0 && Int(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == fileCount, "\(check)")
            // The copyright file is machine-readable; the changelog names this version.
            let copyright = try InstallTools.read(dir.file("x/usr/share/doc/wake/copyright"))
            #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
            let changelog = try await InstallTools.sh("gzip -dc \"$1\"", [dir.file("x/usr/share/doc/wake/changelog.Debian.gz")])
            let version = try wakeVersionFromSource()
        #expect(changelog.stdout.hasPrefix("wake (\(version)-1) unstable; urgency=medium\n"), "\(changelog.stdout)")
            // The unit starts /usr/bin/wake.
            let unit = try InstallTools.read(dir.file("x/usr/lib/systemd/user/wake.service"))
            #expect(unit.contains("\nExecStart=/usr/bin/wake daemon\n"), "\(unit)")
        }

        @Test(.enabled(if: enabled, "needs make, dpkg-deb, dpkg-shlibdeps, lintian and readelf (make deps-package)"))
        func extractedBinaryRunsStrippedAndBoundNow() async throws {
            let p = try await InstallFixture.shared.deb()
            let dir = try TestDirectory("wake-deb-x")
            let x = try await ChildProcess(InstallTools.dpkgDeb, ["-x", p.deb, dir.path]).wait()
            #expect(x.exitCode == 0, "\(x)")
            let binary = dir.file("usr/bin/wake")
            let r = try await InstallTools.sh("cd / && exec \"$1\" --version", [binary])
            let version = try wakeVersionFromSource()
        #expect(r.exitCode == 0 && r.stdout == "wake \(version)\n", "\(r)")
            let dryRun = try await InstallTools.sh("cd / && exec \"$1\" now --dry-run -D null --inhibit off", [binary])
            #expect(dryRun.exitCode == 0 && dryRun.stdout.contains("device: null"), "\(dryRun)")

            let dynamic = try await ChildProcess(InstallTools.readelf, ["-d", binary]).wait()
            #expect(dynamic.stdout.contains("BIND_NOW") || dynamic.stdout.contains("Flags: NOW"), "\(dynamic.stdout)")
            #expect(!dynamic.stdout.contains("RUNPATH") && !dynamic.stdout.contains("(RPATH)"), "\(dynamic.stdout)")
            let sections = try await ChildProcess(InstallTools.readelf, ["-S", "-W", binary]).wait()
            #expect(!sections.stdout.contains(".symtab") && !sections.stdout.contains(".debug_"), "not stripped")
        }

        /// Issue 23: the postinst gives the helper CAP_WAKE_ALARM, the prerm takes it away on
        /// removal; run against a staging root (DPKG_ROOT, as dpkg sets it for --root).
        @Test(.enabled(if: enabled && geteuid() == 0 && InstallTools.has(InstallTools.getcap), "needs root, getcap and make deps-package"))
        func postinstGrantsTheCapabilityAndPrermTakesIt() async throws {
            let p = try await InstallFixture.shared.deb()
            let dir = try TestDirectory("wake-deb-scripts")
            let root = dir.file("root"), control = dir.file("control")
            #expect(try await ChildProcess(InstallTools.dpkgDeb, ["-x", p.deb, root]).wait().exitCode == 0)
            #expect(try await ChildProcess(InstallTools.dpkgDeb, ["-e", p.deb, control]).wait().exitCode == 0)
            let helper = root + "/usr/libexec/wake/wake-alarm-timer"
            #expect(InstallTools.mode(control + "/postinst") == 0o755 && InstallTools.mode(control + "/prerm") == 0o755)
            // dpkg unpacks it without the capability.
            #expect(try await ChildProcess(InstallTools.getcap, [helper]).wait().stdout.isEmpty)

            let env = ["DPKG_ROOT": root, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
            let configure = try await ChildProcess(control + "/postinst", ["configure", ""], environment: env).wait()
            #expect(configure.exitCode == 0 && configure.stderr.isEmpty, "\(configure)")
            let granted = try await ChildProcess(InstallTools.getcap, [helper]).wait()
            #expect(granted.stdout == "\(helper) cap_wake_alarm=ep\n", "\(granted)")
            if HelperFixture.enabled { try await MakeInstall.expectThePolicy(of: helper, in: dir) }
            // Only the helper: wake itself stays unprivileged.
            #expect(try await ChildProcess(InstallTools.getcap, [root + "/usr/bin/wake"]).wait().stdout.isEmpty)

            // An upgrade's prerm leaves it; a removal's takes it.
            let upgrade = try await ChildProcess(control + "/prerm", ["upgrade", "2"], environment: env).wait()
            let kept = try await ChildProcess(InstallTools.getcap, [helper]).wait()
            #expect(upgrade.exitCode == 0 && kept.stdout == granted.stdout, "\(upgrade)\n\(kept)")
            let remove = try await ChildProcess(control + "/prerm", ["remove"], environment: env).wait()
            #expect(remove.exitCode == 0 && remove.stderr.isEmpty, "\(remove)")
            #expect(try await ChildProcess(InstallTools.getcap, [helper]).wait().stdout.isEmpty)
        }

        @Test(.enabled(if: enabled, "needs make, dpkg-deb, dpkg-shlibdeps, lintian and readelf (make deps-package)"))
        func lintianFindsNoError() async throws {
            let p = try await InstallFixture.shared.deb()
            let r = try await ChildProcess(InstallTools.lintian, ["--no-cfg", p.deb]).wait(timeout: .seconds(300))
            let errors = r.stdoutLines.filter { $0.hasPrefix("E: ") }
            #expect(errors.isEmpty && (r.exitCode == 0 || r.exitCode == 2), "lintian: \(r)")
            // Warnings are allowed only where the README explains them.
            let readme = try InstallTools.read(packageRoot + "/README.md")
            for w in r.stdoutLines.filter({ $0.hasPrefix("W: ") }) {
                let tag = w.split(separator: " ").dropFirst(2).first.map(String.init) ?? w
                let explained = readme.contains("`\(tag)`")
            #expect(explained, "lintian warning \(tag) is not explained in the README's Install section: \(w)")
            }
        }
    }
}
