import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// `wake doctor`'s hooks (issue 53): the hooks folder's files and the alarms' `--hook`s, judged by
/// the dispatcher's own checks (`HookFolder`), in a temporary config directory.
@Suite("Doctor: hooks")
struct DoctorHookTests {
    typealias World = DoctorTests.World

    /// A script in the world's hooks folder (0700), with `mode`.
    static func hook(_ w: World, _ name: String, mode: mode_t = 0o755) throws -> String {
        try FileManager.default.createDirectory(atPath: w.dir.path + "/config/wake/hooks.d", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return try w.dir.write("config/wake/hooks.d/" + name, Array("#!/bin/sh\nexit 0\n".utf8), mode: mode)
    }

    static func hooks(_ f: [DoctorFinding]) -> [DoctorFinding] { f.filter { $0.area == .hooks } }

    @Test("no hooks folder and no --hook: no hooks line at all")
    func none() throws {
        let w = try World()
        try w.add("work")
        #expect(Self.hooks(try w.findings()).isEmpty)
    }

    @Test("hooks.d in byte order: runnable PASS, group-writable FAIL with 'chmod go-w FILE', no x bit said and passed, leftovers unlisted")
    func folder() throws {
        let w = try World()
        try w.add("work")
        _ = try Self.hook(w, "50-lamp")
        let open = try Self.hook(w, "60-open", mode: 0o775)
        _ = try Self.hook(w, "README", mode: 0o644)
        _ = try Self.hook(w, "50-lamp~")
        _ = try Self.hook(w, "50-lamp.dpkg-old")
        let all = try w.findings()
        let f = Self.hooks(all)
        #expect(f.map(\.check) == ["hooks.file", "hooks.file", "hooks.file"], "\(DoctorTests.said(all))")
        #expect(f.map(\.status) == [.pass, .fail, .pass], "\(DoctorTests.said(all))")
        #expect(f.first?.found == "hooks.d/50-lamp runs on every event of every alarm")
        #expect(f.dropFirst().first?.found == "hook '\(open)' can be written by others (mode 775), so it is not run")
        #expect(f.dropFirst().first?.fix == "chmod go-w \(open)")
        #expect(f.last?.found == "hooks.d/README is not executable, so it is not run (chmod u+x it to run it)")
        #expect(f.last?.fix == nil)
        #expect(DoctorReport(all).worst == .fail)
        #expect(DoctorTests.said(all).contains("FAIL  hooks         hook '\(open)' can be written by others"), "\(DoctorTests.said(all))")
    }

    @Test("a hooks folder others can write: one FAIL for the folder, none of its files listed")
    func unsafeFolder() throws {
        let w = try World()
        try w.add("work")
        _ = try Self.hook(w, "50-lamp")
        let folder = w.dir.path + "/config/wake/hooks.d"
        chmod(folder, 0o777)
        let f = Self.hooks(try w.findings())
        #expect(f.map(\.check) == ["hooks.folder"])
        #expect(f.first?.status == .fail && f.first?.fix == "chmod go-w \(folder)", "\(f)")
    }

    @Test("--hook: the program found on PATH PASS with its path; one not on PATH FAIL; an unsafe program FAIL; each with its alarms")
    func commands() throws {
        let w = try World()
        // Safe and found when added (`wake add` refuses them otherwise); made unsafe, and the
        // config's program missing, after.
        let unsafe = try w.dir.write("open-program", Array("#!/bin/sh\n".utf8), mode: 0o755)
        try w.add("work", ["device": "null", "hook": "ringing=true\nstopped=\(unsafe)"])
        try w.add("gym")
        chmod(unsafe, 0o777)
        try w.write("config.toml", "hook = [\"all=wake-no-such-program-53 --now\"]\n")
        let all = try w.findings()
        let f = Self.hooks(all)
        let ok = f.first { $0.found.hasPrefix("--hook 'ringing=true'") }
        #expect(ok?.status == .pass && ok?.alarms == ["work"], "\(DoctorTests.said(all))")
        #expect(ok?.found.hasSuffix("/true' on ringing") == true, "\(DoctorTests.said(all))")
        let missing = f.first { $0.found.contains("wake-no-such-program-53") }
        #expect(missing?.status == .fail && missing?.alarms.contains("gym") == true, "\(DoctorTests.said(all))")
        #expect(missing?.found == "hook 'all=wake-no-such-program-53 --now': no program 'wake-no-such-program-53' on PATH")
        #expect(missing?.fix == "give its full path or install it")
        let bad = f.first { $0.found.contains("open-program") }
        #expect(bad?.status == .fail && bad?.alarms == ["work"] && bad?.fix == "chmod go-w \(unsafe)", "\(DoctorTests.said(all))")
        #expect(f.allSatisfy { $0.check == "hooks.command" })
    }

    @Test("the dispatcher and the doctor judge a --hook program by one check: not on PATH, not executable, else its path")
    func programCheck() throws {
        let dir = try TestDirectory("wake-hook-program")
        let plain = try dir.write("plain", Array("#!/bin/sh\n".utf8), mode: 0o644)
        func program(_ text: String) throws -> HookFolder.Program {
            HookFolder.program(of: try HookCommand.parse(text).get(), path: dir.path)
        }
        #expect(try program("ringing=plain")
                == .refused("hook 'ringing=plain': no program 'plain' on PATH; give its full path or install it"))
        #expect(try program("ringing=\(plain)")
                == .refused("hook 'ringing=\(plain)': '\(plain)' is not executable, so it is not run; chmod u+x it"))
        chmod(plain, 0o755)
        #expect(try program("ringing=plain x") == .runs(plain))
    }
}
