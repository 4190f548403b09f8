import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 28: a command loads only what it uses. libasound when a device, a mixer or ALSA's
/// configuration is first opened, libsndfile (with its codecs) when a sound is, and libsystemd
/// (with its compression and crypto libraries) when wake first talks to a bus; the commands that
/// do none of these (`--version`, `list`, `stop`, `next`) start without them. Seen through the
/// dynamic linker's own account (`LD_DEBUG=files`). A library that cannot be loaded is named,
/// with the package to reinstall, before the wait.
@Suite("Libraries loaded on demand")
struct LazyLibrariesTests {
    /// The shared objects the dynamic linker loaded for `arguments`, by file name.
    static func loaded(_ arguments: [String], home: AlarmHome) async throws -> (ProcessResult, Set<String>) {
        var env = home.environment
        env["LD_DEBUG"] = "files"
        let r = try await WakeProcess.run(arguments, environment: env)
        let names = r.stderrLines.compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != "\t" && $0 != ";" })
        }
        return (r, Set(names.map { URL(fileURLWithPath: $0).lastPathComponent }))
    }

    @Test("--version, list, next and stop load none of libasound, libsndfile, libsystemd and libespeak-ng")
    func commandsThatPlayNothing() async throws {
        let home = try AlarmHome()
        let add = try await home.run(["add", "06:30", "--days", "weekdays", "-D", "null"])
        #expect(add.exitCode == 0, "\(add)")
        for args in [["--version"], ["list"], ["next"], ["stop"]] {
            let (r, libs) = try await Self.loaded(args, home: home)
            #expect(libs.contains("libc.so.6"), "LD_DEBUG gave no account: \(r)")
            for lazy in ["libasound.so.2", "libsndfile.so.1", "libsystemd.so.0", "libespeak-ng.so.1"] {
                #expect(!libs.contains(lazy), "\(args) loaded \(lazy): \(libs.sorted())")
            }
        }
    }

    /// (Whether libsystemd comes too is not wake's to say here: ALSA's configuration loads the
    /// pulse plugin's hooks, and libpulse links libsystemd.)
    @Test("a dry run with a sound file loads libsndfile and libasound to check the sound and the device")
    func loadedWhenUsed() async throws {
        let home = try AlarmHome()
        let sound = packageRoot + "/Resources/alarm.flac"
        let (r, libs) = try await Self.loaded(["--dry-run", "+1m", "-D", "null", "-s", sound, "--inhibit", "off", "--notify", "off"], home: home)
        #expect(r.exitCode == 0, "\(r)")
        #expect(libs.contains("libsndfile.so.1") && libs.contains("libasound.so.2"), "\(libs.sorted())")
    }

    /// espeak-ng (with libpcaudio and libsonic) only for an alarm that speaks (issue 42): a dry
    /// run, a ring and `wake add` without `--say on` never map it.
    @Test("libespeak-ng is loaded only when an alarm with --say on is set")
    func espeakOnlyWhenSpeaking() async throws {
        let home = try AlarmHome()
        let quiet = ["--dry-run", "+1m", "-D", "null", "--inhibit", "off", "--notify", "off"]
        let (dry, dryLibs) = try await Self.loaded(quiet, home: home)
        #expect(dry.exitCode == 0 && dryLibs.contains("libc.so.6"), "\(dry)")
        #expect(!dryLibs.contains("libespeak-ng.so.1"), "\(dryLibs.sorted())")
        let (ring, ringLibs) = try await Self.loaded(["now", "-D", "null", "--inhibit", "off", "--notify", "off", "--ring-for", "1s"], home: home)
        #expect(ring.exitCode == 4 && !ringLibs.contains("libespeak-ng.so.1"), "\(ringLibs.sorted())")
        let (add, addLibs) = try await Self.loaded(["add", "06:30", "--days", "daily", "-D", "null"], home: home)
        #expect(add.exitCode == 0 && !addLibs.contains("libespeak-ng.so.1"), "\(add) \(addLibs.sorted())")
        let (spoken, spokenLibs) = try await Self.loaded(quiet + ["--say", "on"], home: home)
        #expect(spoken.exitCode == 0, "\(spoken)")
        #expect(spokenLibs.contains("libespeak-ng.so.1"), "\(spokenLibs.sorted())")
    }

    /// The libraries wake itself asked for with dlopen for `arguments` (ALSA's configuration
    /// may bring libsndfile anyway: the pulse plugin's hook links libpulse, which links it).
    static func dlopened(_ arguments: [String], home: AlarmHome) async throws -> (ProcessResult, [String]) {
        var env = home.environment
        env["LD_DEBUG"] = "files"
        let r = try await WakeProcess.run(arguments, environment: env)
        return (r, r.stderrLines.filter { $0.contains("file=") && $0.contains("dynamically loaded by") && !$0.contains("alsa-lib") })
    }

    /// The built-in sound plays from the binary's own samples: the sound most alarms ring with
    /// needs no decoder.
    @Test("wake opens no libsndfile for the built-in sound: a dry run and a ring with it")
    func builtInSoundNeedsNoDecoder() async throws {
        let home = try AlarmHome()
        let (dry, dryOpened) = try await Self.dlopened(["--dry-run", "+1m", "-D", "null", "--inhibit", "off", "--notify", "off"], home: home)
        #expect(dry.exitCode == 0, "\(dry)")
        #expect(dry.stdout.contains("(built-in alarm) (built into wake, Signed 16 bit PCM, 1 ch, 44100 Hz, 2.4 s)"), "\(dry)")
        #expect(dryOpened.contains { $0.contains("libasound.so.2") }, "\(dryOpened)")
        #expect(!dryOpened.contains { $0.contains("libsndfile.so.1") }, "\(dryOpened)")
        let (ring, ringOpened) = try await Self.dlopened(["now", "-D", "null", "--inhibit", "off", "--notify", "off", "--ring-for", "2s"], home: home)
        #expect(ring.exitCode == 4, "\(ring)")
        #expect(!ringOpened.contains { $0.contains("libsndfile.so.1") }, "\(ringOpened)")
        let sound = packageRoot + "/Resources/alarm.flac"
        let (file, fileOpened) = try await Self.dlopened(["--dry-run", "+1m", "-D", "null", "-s", sound, "--inhibit", "off", "--notify", "off"], home: home)
        #expect(file.exitCode == 0, "\(file)")
        #expect(fileOpened.contains { $0.contains("libsndfile.so.1") }, "a sound file is opened with libsndfile: \(fileOpened)")
    }

    /// Loaded late, still interposable as a linked library is: the benchmark's LD_PRELOAD probe
    /// sees wake open the device and write to it.
    @Test("an LD_PRELOAD interposer sees wake's ALSA calls", .enabled(if: ALSAProbe.canBuild, "needs cc"))
    func interposerSeesTheCalls() async throws {
        let dir = try TestDirectory("wake-probe")
        let (probe, log) = try await ALSAProbe.build(in: dir)
        let r = try await WakeProcess.run(["+1s", "-D", "null", "--inhibit", "off", "--notify", "off", "--ring-for", "1s"],
                                          environment: ALSAProbe.environment(probe: probe, log: log))
        #expect(r.exitCode == 4, "\(r)")
        let what = ALSAProbe.lines(log).compactMap { $0.dropFirst().first }
        #expect(what.contains("open") && what.contains("first") && what.contains("frames"), "probe log: \(ChildProcess.read(log))")
    }

    /// A directory on LD_LIBRARY_PATH holding `soname` as a file that is no library: dlopen
    /// finds it first and fails, as it would with the library's package removed or damaged.
    static func withBrokenLibrary(_ soname: String) throws -> TestDirectory {
        let dir = try TestDirectory("wake-broken-lib")
        try Data("not a shared object\n".utf8).write(to: URL(fileURLWithPath: dir.path + "/" + soname))
        return dir
    }

    @Test("a libasound or libsndfile that cannot be loaded is named with what to reinstall, before the wait",
          arguments: [("libasound.so.2", Int32(69), "cannot ring on device 'null': libasound.so.2 cannot be loaded; reinstall it: sudo apt install --reinstall libasound2"),
                      ("libsndfile.so.1", Int32(66), "cannot use sound file '\(packageRoot)/Resources/alarm.flac': libsndfile.so.1 cannot be loaded; reinstall it: sudo apt install --reinstall libsndfile1")])
    func brokenLibrary(soname: String, status: Int32, line: String) async throws {
        let home = try AlarmHome()
        let dir = try Self.withBrokenLibrary(soname)
        var env = home.environment
        env["LD_LIBRARY_PATH"] = dir.path
        let r = try await WakeProcess.run(["+1m", "-D", "null", "-s", packageRoot + "/Resources/alarm.flac", "--inhibit", "off", "--notify", "off"],
                                          environment: env)
        #expect(r.exitCode == status, "\(r)")
        #expect(r.stderrLines == ["wake: " + line], "\(r)")
        withExtendedLifetime(dir) {}
    }

    /// Before, the built-in sound went through libsndfile too, and without it wake refused every
    /// alarm. Now it is what rings when nothing else can be read. (On an ALSA whose configuration
    /// has the pulse plugin's hook, that hook needs libsndfile too, through libpulse, and without
    /// it ALSA opens no device at all: so an ALSA configuration of its own here, as a machine
    /// without libasound2-plugins has.)
    @Test("without a loadable libsndfile the built-in sound still rings")
    func builtInSoundWithoutLibsndfile() async throws {
        let home = try AlarmHome()
        let dir = try Self.withBrokenLibrary("libsndfile.so.1")
        try Data("pcm.null { type null }\n".utf8).write(to: URL(fileURLWithPath: dir.path + "/asound.conf"))
        var env = home.environment
        env["LD_LIBRARY_PATH"] = dir.path
        env["ALSA_CONFIG_PATH"] = dir.path + "/asound.conf"
        let r = try await WakeProcess.run(["now", "-D", "null", "--inhibit", "off", "--notify", "off", "--ring-for", "2s"], environment: env)
        #expect(r.exitCode == 4, "\(r)")
        #expect(r.stderrLines.isEmpty, "\(r)")
        withExtendedLifetime(dir) {}
    }

    @Test("--list-devices without a loadable libasound names it and what to reinstall (69)")
    func listDevicesWithoutALSA() async throws {
        let dir = try Self.withBrokenLibrary("libasound.so.2")
        let r = try await WakeProcess.run(["--list-devices"], environment: ["LD_LIBRARY_PATH": dir.path])
        #expect(r.exitCode == 69, "\(r)")
        #expect(r.stderrLines == ["wake: cannot list the devices: snd_device_name_hint on 'pcm': libasound.so.2 cannot be loaded; "
                                  + "reinstall it: sudo apt install --reinstall libasound2"], "\(r)")
        withExtendedLifetime(dir) {}
    }

    /// A headless daemon (no DBUS_SESSION_BUS_ADDRESS, no `$XDG_RUNTIME_DIR/bus`) has no desktop
    /// to notify: it learns so without loading libsystemd and the libraries it brings. The alarm is
    /// six hours away, outside its bedtime check's two hours: that check opens the device, and
    /// ALSA's configuration may bring libpulse, and with it libsystemd, as a ring does.
    @Test("the daemon without a session bus does not load libsystemd")
    func daemonWithoutSessionBus() async throws {
        let home = try AlarmHome()
        let add = try await home.run(["add", AlarmHome.soon(6 * 3600), "--days", "daily", "-D", "null"])
        #expect(add.exitCode == 0, "\(add)")
        var env = home.environment
        env["LD_DEBUG"] = "files"
        let daemon = try DetachedWake(["daemon", "--inhibit", "off"], environment: env, unset: ["DBUS_SESSION_BUS_ADDRESS"],
                                      events: false, directory: home.dir)
        try await daemon.waitForOutput(containing: "wake daemon running")
        try await Task.sleep(for: .milliseconds(500))
        daemon.send(SIGTERM)
        let r = await daemon.wait()
        let loaded = r.stderrLines.filter { $0.contains("file=") }
        #expect(!loaded.contains { $0.contains("libsystemd.so.0") }, "\(loaded)")
    }

    /// Nobody watches the daemon: it starts anyway, and an alarm whose sound file it cannot open
    /// for want of libsndfile rings the built-in sound (which needs none), saying why and naming
    /// the package to reinstall.
    @Test("the daemon without a loadable libsndfile rings the built-in sound and says why")
    func daemonWithoutSndfile() async throws {
        let home = try AlarmHome()
        let sound = packageRoot + "/Resources/alarm.flac"
        let add = try await home.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null", "-s", sound])
        #expect(add.exitCode == 0, "\(add)")
        let dir = try Self.withBrokenLibrary("libsndfile.so.1")
        var env = home.environment
        env["LD_LIBRARY_PATH"] = dir.path
        let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notify", "off", "--no-wake-system"], environment: env,
                                      events: false, directory: home.dir)
        let said = try await daemon.waitForOutput(containing: "alarm 'work'", onStderr: true)
        #expect(said.contains("wake: alarm 'work': cannot use sound file '\(sound)': libsndfile.so.1 cannot be loaded; "
                              + "reinstall it: sudo apt install --reinstall libsndfile1; it will ring wake's built-in sound"), "\(said)")
        let list = try await home.run(["list"])
        #expect(list.stdout.contains("work") && list.stdout.contains("waiting"), "\(list)")
        daemon.send(SIGTERM)
        _ = await daemon.wait()
        withExtendedLifetime(dir) {}
    }
}
