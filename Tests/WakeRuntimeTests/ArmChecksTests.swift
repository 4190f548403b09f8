import Glibc
import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// The arm-time sound check, written once (issue 38), run in each of its three modes: a one-off
/// and `wake add` refuse what the daemon warns about and replaces with wake's own sound.
@Suite("Arm checks: one check, three modes")
struct ArmChecksTests {
    static let modes: [ArmChecks.Mode] = [.oneOff, .add, .daemon(alarm: "work")]

    static func builtIn() throws(SoundFile.OpenError) -> SoundFile { try DefaultSound.open() }

    @Test("a sound silent at the volume: refused (66) by a one-off and wake add; the daemon says so and rings the built-in", arguments: modes)
    func quietFile(mode: ArmChecks.Mode) async throws {
        let dir = try TestDirectory()
        let quiet = try await makeSound(in: dir, name: "quiet.wav", rate: 44100, channels: 1, seconds: "2",
                                        synth: ["sine", "440", "vol", "-50dB"])
        // Audible at full volume: only the volume makes it silent.
        #expect(try ArmChecks.sound(quiet, volume: 100, mode: mode, interrupt: { nil }, builtIn: Self.builtIn).kind == .user)
        do throws(WakeFailure) {
            let sound = try ArmChecks.sound(quiet, volume: 5, mode: mode, interrupt: { nil }, builtIn: Self.builtIn)
            #expect(mode == .daemon(alarm: "work"), "\(mode) accepted it")
            #expect(sound.kind == .builtIn && sound.decoded?.path == quiet)
            #expect(sound.warning?.hasPrefix("alarm 'work': cannot use sound file '\(quiet)': the sound is silent") == true, "\(sound.warning ?? "")")
            #expect(sound.warning?.hasSuffix("it will ring wake's built-in sound") == true)
        } catch {
            #expect(mode != .daemon(alarm: "work"), "the daemon refused: \(error.message)")
            #expect(error.kind == .soundUnusable && error.message.contains("dBFS at --volume 5; an alarm needs more than -60.0 dBFS; raise the volume"), "\(error.message)")
        }
    }

    @Test("a file that does not decode: refused by a one-off and wake add; the daemon rings the built-in", arguments: modes)
    func brokenFile(mode: ArmChecks.Mode) throws {
        let dir = try TestDirectory()
        let path = try dir.write("broken.wav", Array("RIFF not really".utf8))
        do throws(WakeFailure) {
            let sound = try ArmChecks.sound(path, volume: 100, mode: mode, interrupt: { nil }, builtIn: Self.builtIn)
            #expect(mode == .daemon(alarm: "work"))
            #expect(sound.kind == .builtIn && sound.decoded == nil && sound.warning?.contains("broken.wav") == true)
        } catch {
            #expect(mode != .daemon(alarm: "work"))
            #expect(error.kind == .soundUnusable && error.message.hasSuffix("choose another file with --sound"), "\(error.message)")
        }
    }

    @Test("a folder with a broken and a quiet file: a one-off and wake add decode each, warn once per file and keep the good one; the daemon only lists them", arguments: modes)
    func folderWithBadFiles(mode: ArmChecks.Mode) async throws {
        let dir = try TestDirectory()
        mkdir(dir.file("f"), 0o755)
        let good = try await makeSound(in: dir, name: "f/a.wav", rate: 44100, channels: 1, seconds: "1", synth: ["sine", "440"])
        let quiet = try await makeSound(in: dir, name: "f/b.wav", rate: 44100, channels: 1, seconds: "1", synth: ["sine", "440", "vol", "-70dB"])
        let broken = try dir.write("f/c.wav", Array("RIFF not really".utf8))
        _ = try dir.write("f/.hidden.wav", Array("x".utf8))
        _ = try dir.write("f/cover.jpg", Array("x".utf8))
        let sound = try ArmChecks.sound(dir.file("f"), volume: 100, mode: mode, interrupt: { nil }, builtIn: Self.builtIn)
        #expect(sound.kind == .user && sound.collection?.ignored == 1)
        if mode == .daemon(alarm: "work") {
            #expect(sound.entries == [good, quiet, broken] && sound.warnings.isEmpty && sound.warning == nil, "nothing is decoded: \(sound.entries)")
        } else {
            #expect(sound.entries == [good] && sound.file.path == good, "\(sound.entries)")
            #expect(sound.warnings.count == 2 && sound.warnings[0].contains("b.wav") && sound.warnings[0].contains("silent")
                    && sound.warnings[1].contains("c.wav"), "\(sound.warnings)")
            #expect(sound.warnings.allSatisfy { $0.hasPrefix("warning: sound folder ") && $0.hasSuffix("; it is left out") })
        }
    }

    @Test("a folder with nothing usable: refused (66) by a one-off and wake add; the daemon says so and rings the built-in", arguments: modes)
    func folderWithNothingUsable(mode: ArmChecks.Mode) throws {
        let dir = try TestDirectory()
        mkdir(dir.file("empty"), 0o755)
        do throws(WakeFailure) {
            let sound = try ArmChecks.sound(dir.file("empty"), volume: 100, mode: mode, interrupt: { nil }, builtIn: Self.builtIn)
            #expect(mode == .daemon(alarm: "work"))
            #expect(sound.kind == .builtIn && sound.entries.isEmpty && sound.warning?.contains("holds no sound files") == true, "\(sound.warning ?? "")")
        } catch {
            #expect(mode != .daemon(alarm: "work"))
            #expect(error.kind == .soundUnusable && error.message.contains("holds no sound files (looked for .wav, .flac"), "\(error.message)")
        }
    }

    @Test("a list: its entries that exist, in order; a URL and a missing file warned about in every mode", arguments: modes)
    func playlist(mode: ArmChecks.Mode) async throws {
        let dir = try TestDirectory()
        let good = try await makeSound(in: dir, name: "a.wav", rate: 44100, channels: 1, seconds: "1", synth: ["sine", "440"])
        let list = try dir.write("l.m3u8", Array("#EXTM3U\n#EXTINF:1,A\na.wav\nhttps://x/y.ogg\nmissing.wav\n".utf8))
        let sound = try ArmChecks.sound(list, volume: 100, mode: mode, interrupt: { nil }, builtIn: Self.builtIn)
        // Relative entries are joined to the list's folder textually, its `//` made one.
        #expect(sound.kind == .user && sound.entries == [SoundList.join(SoundList.directory(of: list), "a.wav")], "\(sound.entries)")
        #expect(sound.entries.first?.hasSuffix("/a.wav") == true && good.hasSuffix("/a.wav"))
        #expect(sound.warnings.count == 2 && sound.warnings[0].contains("line 4: 'https://x/y.ogg' is a URL")
                && sound.warnings[1].contains("missing.wav': no such file"), "\(sound.warnings)")
    }

    @Test("a list of 5,000 missing files and one that exists: one warning with the count, in every mode", arguments: modes)
    func manyMissingSaidOnce(mode: ArmChecks.Mode) async throws {
        let dir = try TestDirectory()
        _ = try await makeSound(in: dir, name: "a.wav", rate: 44100, channels: 1, seconds: "1", synth: ["sine", "440"])
        let lines = (1...5000).map { "gone/\($0).wav" } + ["a.wav"]
        let list = try dir.write("l.m3u", Array(lines.joined(separator: "\n").utf8))
        let sound = try ArmChecks.sound(list, volume: 100, mode: mode, interrupt: { nil }, builtIn: Self.builtIn)
        #expect(sound.entries.count == 1 && sound.entries.first?.hasSuffix("/a.wav") == true)
        #expect(sound.warnings.count == 1 && sound.warnings[0].contains("5,000 of its files are missing, e.g. '")
                && sound.warnings[0].contains("/gone/3.wav'; they are left out") && !sound.warnings[0].contains("/gone/4.wav"),
                "\(sound.warnings)")
    }

    @Test("a signal while decoding ends the check in every mode; wake add says nothing was added", arguments: modes)
    func interrupted(mode: ArmChecks.Mode) async throws {
        let dir = try TestDirectory()
        let long = try await makeSound(in: dir, name: "long.wav", rate: 44100, channels: 1, seconds: "30")
        do throws(WakeFailure) {
            _ = try ArmChecks.sound(long, volume: 100, mode: mode, interrupt: { SIGTERM }, builtIn: Self.builtIn)
            Issue.record("a pending SIGTERM did not end the decoding")
        } catch {
            #expect(error.signal == SIGTERM)
            #expect(error.message.hasSuffix(mode == .add ? "nothing was added" : "nothing was set"), "\(error.message)")
        }
    }

    @Test("no file: wake's own sound, audible, in every mode", arguments: modes)
    func builtInSound(mode: ArmChecks.Mode) throws {
        let sound = try ArmChecks.sound(nil, volume: 100, mode: mode, interrupt: { nil }, builtIn: Self.builtIn)
        #expect(sound.kind == .builtIn && sound.warning == nil)
    }
}

/// `--sink` at arm time (issue 52, item 3), on a stand-in for the server's list.
@Suite("Arm checks: --sink")
struct SinkArmChecksTests {
    static let sinks = [SinkChoice.Listed(name: "speaker", description: "Built-in Audio", bus: "pci"),
                        SinkChoice.Listed(name: "bluez_sink.00_11", description: "Earbuds", bus: "bluetooth")]
    static func listed() throws(SoundServerStream.Failure) -> [SinkChoice.Listed] { sinks }
    static func unreachable() throws(SoundServerStream.Failure) -> [SinkChoice.Listed] {
        throw SoundServerStream.Failure(description: "cannot reach the sound server: Connection refused")
    }

    @Test("a description is rung, and stored, by the sink's name", arguments: ArmChecksTests.modes)
    func byDescription(mode: ArmChecks.Mode) throws {
        let settings = try RingSettings(values: ["sink": "Earbuds"])
        let checked = try ArmChecks.sink(settings, mode: mode, list: Self.listed)
        #expect(checked.settings.sink == "bluez_sink.00_11" && checked.settings.values["sink"] == "bluez_sink.00_11")
        #expect(checked.settings.device == "pulse:'bluez_sink.00_11'" && checked.sink?.isDetachable == true && checked.warning == nil)
        #expect(checked.settings.request(sound: try DefaultSound.open(), kind: .builtIn).sink == "bluez_sink.00_11")
    }

    @Test("a sink the server lacks: refused (69) with the ones it has; the daemon says so", arguments: ArmChecksTests.modes)
    func missing(mode: ArmChecks.Mode) throws {
        let settings = try RingSettings(values: ["sink": "USB Audio"])
        do throws(WakeFailure) {
            let checked = try ArmChecks.sink(settings, mode: mode, list: Self.listed)
            #expect(mode == .daemon(alarm: "work"), "\(mode) accepted it")
            #expect(checked.warning == "alarm 'work': --sink 'USB Audio': the sound server has no such sink "
                + "(its sinks: speaker (Built-in Audio), "
                + "bluez_sink.00_11 (Earbuds)); it rings on the server's default sink until that sink is back", "\(checked.warning ?? "")")
        } catch {
            #expect(mode != .daemon(alarm: "work"), "the daemon refused: \(error.message)")
            #expect(error.kind == .unavailable && error.message.contains("its sinks: speaker (Built-in Audio), bluez_sink.00_11 (Earbuds)"),
                    "\(error.message)")
        }
    }

    @Test("no server to ask: refused (69) by a one-off and wake add; the daemon says so")
    func unreachable() throws {
        let settings = try RingSettings(values: ["sink": "speaker"])
        #expect(throws: WakeFailure.self) { try ArmChecks.sink(settings, mode: .oneOff, list: Self.unreachable) }
        do throws(WakeFailure) {
            _ = try ArmChecks.sink(settings, mode: .add, list: Self.unreachable)
        } catch {
            #expect(error.kind == .unavailable && error.message.hasPrefix("--sink 'speaker': cannot reach the sound server"),
                    "\(error.message)")
        }
        let daemon = try ArmChecks.sink(settings, mode: .daemon(alarm: "work"), list: Self.unreachable)
        #expect(daemon.warning?.contains("at ring time it tries the sink, then the default device") == true)
        #expect(daemon.settings.sink == "speaker")
    }

    @Test("--sink beside another --device is a usage error (64) before the server is asked")
    func besideDevice() throws {
        let settings = try RingSettings(values: ["sink": "speaker", "device": "hw:0"])
        do throws(WakeFailure) {
            _ = try ArmChecks.sink(settings, mode: .oneOff, list: Self.unreachable)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .usage && error.message.contains("--device 'hw:0'"), "\(error.message)")
        }
    }
}

extension SinkArmChecksTests {
    @Test("--sink all: checked on the default sink, rung on the combined one; a server with no sink refuses it (69)")
    func all() throws {
        let settings = try RingSettings(values: ["sink": "all"])
        let checked = try ArmChecks.sink(settings, mode: .oneOff, list: Self.listed)
        let ring = checked.settings.request(sound: try DefaultSound.open(), kind: .builtIn)
        #expect(checked.settings.device == "pulse" && ring.device == "pulse:'wake_all'" && ring.sink == "all")
        do throws(WakeFailure) {
            _ = try ArmChecks.sink(settings, mode: .add, list: { () throws(SoundServerStream.Failure) in [] })
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .unavailable && error.message.hasPrefix("--sink all: the sound server has no sink"), "\(error.message)")
        }
    }
}
