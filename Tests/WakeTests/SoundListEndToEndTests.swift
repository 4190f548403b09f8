import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// A folder or an M3U list as the sound (`-s DIR`, `-s LIST.m3u`), rung by the real binary on
/// `file:` PCMs: which file rang is read back from the capture by its tone.
@Suite("Sound folders and lists: end to end", .serialized)
struct SoundListEndToEndTests {
    static let tones: [Double] = [300, 700, 1500]

    /// A folder `name` in `home` with one second of a sine at each of `freqs` (`tNNN.wav`).
    func toneFolder(_ home: AlarmHome, _ name: String, _ freqs: [Double] = tones) async throws -> String {
        let folder = home.dir.file(name)
        mkdir(folder, 0o755)
        for f in freqs {
            _ = try await makeSound(in: home.dir, name: "\(name)/t\(Int(f)).wav", rate: 44100, channels: 1, seconds: "1",
                                    synth: ["sine", "\(Int(f))"])
        }
        return folder
    }

    /// The tone a capture holds (nil: none of the candidates, or nothing).
    func tone(of capture: String) -> Double? {
        guard let data = try? readRaw(capture, channels: 1, rate: 44100), data.frameCount > 4410 else { return nil }
        return dominantTone(data, candidates: Self.tones)
    }

    func events(_ path: String) -> [WakeEvent] { WakeEvent.read(path) }

    func daemon(_ home: AlarmHome, events: String) async throws -> DetachedWake {
        let d = try DetachedWake(["daemon", "--inhibit", "off", "--events", events], environment: home.environment,
                                 events: false, directory: home.dir)
        try await d.waitForOutput(containing: "wake daemon running")
        return d
    }

    /// Waits until the event log holds `count` events called `name`.
    func waitFor(_ name: String, count: Int, in path: String, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while events(path).filter({ $0.name == name }).count < count {
            guard ContinuousClock.now < deadline else {
                throw WakeTestError("no \(count) '\(name)' events in time: \(ChildProcess.read(path))")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    func waitUntilRemoved(_ home: AlarmHome) async throws {
        for _ in 0..<50 {
            if try await home.listJSON().isEmpty { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw WakeTestError("the rung one-off was not removed")
    }

    func historyText(_ home: AlarmHome) -> String { ChildProcess.read(home.dir.file("config") + "/wake/history.toml") }

    @Test("a folder of three tones rings each once before any repeats, across daemon rings and a daemon restart")
    func threeTonesEachOnce() async throws {
        let home = try AlarmHome()
        let folder = try await toneFolder(home, "tones")
        let log = home.dir.file("events.jsonl")
        var d = try await daemon(home, events: log)
        var heard: [Double] = []
        var named: [String] = []
        for i in 0..<3 {
            if i == 2 {
                // The memory of what played is the history file's, not this process's.
                #expect(historyText(home).contains("played = ["), "\(historyText(home))")
                d.send(SIGTERM)
                #expect(await d.wait().exitCode == 0)
                d = try await daemon(home, events: log)
            }
            let capture = home.dir.file("capture\(i).raw")
            let r = try await home.run(["add", AlarmHome.soon(4), "--name", "tones", "-s", folder, "-D", "file:'\(capture)',raw",
                                        "--ring-for", "1s", "--unattended", "stop"])
            #expect(r.exitCode == 0, "\(r)")
            try await waitFor("timed_out", count: i + 1, in: log)
            let ringing = events(log).filter { $0.name == "ringing" }
            #expect(ringing.count == i + 1, "\(ChildProcess.read(log))")
            named.append(ringing.last?["sound"] ?? "")
            let t = tone(of: capture)
            #expect(t != nil, "ring \(i + 1) is one of the tones")
            heard.append(t ?? 0)
            try await waitUntilRemoved(home)
        }
        #expect(Set(heard) == Set(Self.tones), "each tone once in three rings: \(heard), named \(named)")
        #expect(Set(named) == Set(Self.tones.map { "\(folder)/t\(Int($0)).wav" }), "the event log names each file: \(named)")
        for (t, n) in zip(heard, named) { #expect(n.hasSuffix("/t\(Int(t)).wav"), "the named file is the one heard: \(named) \(heard)") }
        d.send(SIGTERM)
        #expect(await d.wait().exitCode == 0)
    }

    @Test("a folder with one broken file: 'wake add' warns once naming it, and the ring plays another instead")
    func brokenFileWarnedAndPassedOver() async throws {
        let home = try AlarmHome()
        let folder = try await toneFolder(home, "mixed", [300, 700])
        _ = try home.dir.write("mixed/broken.wav", Array("not a sound at all".utf8))
        _ = try home.dir.write("mixed/notes.txt", Array("ignored".utf8))
        let capture = home.dir.file("capture.raw")
        let r = try await home.run(["add", AlarmHome.soon(5), "--name", "mixed", "-s", folder, "-D", "file:'\(capture)',raw",
                                    "--ring-for", "1s", "--unattended", "stop"])
        // The history says both tones played this round: the broken file comes first at the ring.
        _ = try home.dir.write("config/wake/history.toml",
                               Array("[mixed]\nplayed = [\"\(folder)/t300.wav\", \"\(folder)/t700.wav\"]\n".utf8))
        let log = home.dir.file("events.jsonl")
        let d = try await daemon(home, events: log)
        #expect(r.exitCode == 0, "one broken file does not refuse the alarm: \(r)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("broken.wav") }
        #expect(lines.count == 1 && lines[0].hasPrefix("wake: warning:"), "one warning naming the file: \(r.stderr)")
        #expect(!r.stderr.contains("notes.txt"), "other files are ignored silently: \(r.stderr)")
        try await waitFor("timed_out", count: 1, in: log)
        let all = events(log)
        let fallback = all.first { $0.name == "fallback" }
        #expect(fallback?["from"] == "\(folder)/broken.wav", "the broken file was tried and passed over: \(all)")
        let ringing = all.first { $0.name == "ringing" }
        let played = ringing?["sound"] ?? ""
        #expect(played == "\(folder)/t300.wav" || played == "\(folder)/t700.wav", "\(all)")
        #expect(fallback?["to"] == played, "\(all)")
        let t = tone(of: capture)
        #expect(t == 300 || t == 700, "a tone rang: \(String(describing: t))")
        #expect(played.hasSuffix("/t\(Int(t ?? 0)).wav"), "the file named is the one heard")
        d.send(SIGTERM)
        #expect(await d.wait().exitCode == 0)
    }

    @Test("an entry deleted before ring time falls to the next, said in the event log")
    func deletedEntryFallsToTheNext() async throws {
        let home = try AlarmHome()
        let folder = try await toneFolder(home, "two", [300, 700])
        let capture = home.dir.file("capture.raw")
        let r = try await home.run(["add", AlarmHome.soon(6), "--name", "two", "-s", folder, "-D", "file:'\(capture)',raw",
                                    "--ring-for", "1s", "--unattended", "stop"])
        #expect(r.exitCode == 0, "\(r)")
        // t700 played this round: t300 is first at the next ring.
        _ = try home.dir.write("config/wake/history.toml", Array("[two]\nplayed = [\"\(folder)/t700.wav\"]\n".utf8))
        let log = home.dir.file("events.jsonl")
        let d = try await daemon(home, events: log)
        try await waitFor("armed", count: 1, in: log)
        unlink(folder + "/t300.wav")
        try await waitFor("timed_out", count: 1, in: log)
        let all = events(log)
        let fallback = all.first { $0.name == "fallback" }
        #expect(fallback?["from"] == "\(folder)/t300.wav" && fallback?["to"] == "\(folder)/t700.wav", "\(all)")
        #expect(fallback?["reason"]?.contains("No such file") == true || fallback?["reason"]?.contains("no such file") == true,
                "\(String(describing: fallback))")
        #expect(all.first { $0.name == "ringing" }?["sound"] == "\(folder)/t700.wav", "\(all)")
        #expect(tone(of: capture) == 700, "the next file rang")
        d.send(SIGTERM)
        #expect(await d.wait().exitCode == 0)
    }

    @Test("a playlist with relative paths, comments and #EXTINF rings its file; a URL line is warned about")
    func playlistWithRelativePaths() async throws {
        let home = try AlarmHome()
        _ = try await toneFolder(home, "tones", [700])
        mkdir(home.dir.file("lists"), 0o755)
        let list = try home.dir.write("lists/morning.m3u",
                                      Array("#EXTM3U\r\n#EXTINF:1,Seven hundred\r\n../tones/t700.wav\r\n\r\n# a comment\r\nhttp://example.com/x.mp3\r\n".utf8))
        let capture = home.dir.file("capture.raw")
        let wake = try WakeProcess([AlarmHome.soon(2), "-s", list, "-D", "file:'\(capture)',raw", "--ring-for", "1s", "--inhibit", "off"],
                                   environment: home.environment, directory: home.dir)
        let r = await wake.wait(timeout: .seconds(30))
        #expect(r.stderr.contains("line 6: 'http://example.com/x.mp3' is a URL"), "\(wake.report(r))")
        let ringing = wake.events.first { $0.name == "ringing" }
        let sound = ringing?["sound"] ?? ""
        #expect(sound.hasPrefix("/") && sound.hasSuffix("/tones/t700.wav") && !sound.contains("/lists/"), "\(wake.report(r))")
        #expect(r.stdout.contains("playing '"), "the ring line names the file: \(r.stdout)")
        #expect(tone(of: capture) == 700, "the list's file rang")
    }

    @Test("a folder with no sound file, or none usable, is refused at set time (66)")
    func emptyOrUnusableFolderRefused() async throws {
        let home = try AlarmHome()
        mkdir(home.dir.file("empty"), 0o755)
        let empty = try await home.run(["add", AlarmHome.soon(60), "--name", "e", "-s", home.dir.file("empty"), "-D", "null"])
        #expect(empty.exitCode == 66 && empty.stderr.contains("holds no sound files"), "\(empty)")
        mkdir(home.dir.file("bad"), 0o755)
        _ = try home.dir.write("bad/a.wav", Array("junk".utf8))
        let bad = try await home.run(["add", AlarmHome.soon(60), "--name", "b", "-s", home.dir.file("bad"), "-D", "null"])
        #expect(bad.exitCode == 66 && bad.stderr.contains("no file of the folder"), "\(bad)")
        #expect(try await home.listJSON().isEmpty)
    }
}
