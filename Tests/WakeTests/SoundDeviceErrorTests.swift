import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// C. An unusable sound file or device is found when the alarm is set, not when it rings:
/// these runs ask for `+1h` without `--dry-run`, so wake must refuse before it starts waiting. A
/// dry run's sound and device lines run in process (Tests/WakeCommandLineTests/DryRunCommandTests.swift).

@Suite("C. Sound file and device errors at arm time")
struct SoundDeviceErrorTests {
    /// Arms `+1h` with `--sound path`; a correct wake exits at once.
    func armWithSound(_ path: String) async throws -> ProcessResult {
        try await WakeProcess.run(["+1h", "-D", "null", "--sound", path], timeout: .seconds(10))
    }

    func expectSoundRefused(_ r: ProcessResult, naming path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.timedOut, "wake did not refuse the sound at arm time: \(r)", sourceLocation: sourceLocation)
        #expect(r.exitCode == 66, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderrIsOneLine, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(path), "the message should name the file: \(r)", sourceLocation: sourceLocation)
        #expect(!r.stdout.contains("alarm set"), "\(r)", sourceLocation: sourceLocation)
    }

    @Test("a missing file: 66, one line naming it")
    func missingFile() async throws {
        let r = try await armWithSound("/nonexistent.wav")
        expectSoundRefused(r, naming: "/nonexistent.wav")
    }

    @Test("a directory with no sound files in it: 66, naming it (a directory is a folder of sounds, issue 42)")
    func directory() async throws {
        let dir = try TestDirectory()
        _ = try dir.write("notes.txt", Array("not a sound".utf8))
        let r = try await armWithSound(dir.path)
        expectSoundRefused(r, naming: dir.path)
        #expect(r.stderr.contains("holds no sound files"), "\(r)")
    }

    @Test("an empty file: 66")
    func emptyFile() async throws {
        let dir = try TestDirectory()
        let path = try dir.write("empty.wav", [])
        let r = try await armWithSound(path)
        expectSoundRefused(r, naming: path)
    }

    @Test("random bytes named .wav: 66")
    func randomBytes() async throws {
        let dir = try TestDirectory()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<8192).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let path = try dir.write("x.wav", bytes)
        let r = try await armWithSound(path)
        expectSoundRefused(r, naming: path)
    }

    @Test("a FIFO: 66 at once, without hanging")
    func fifo() async throws {
        let dir = try TestDirectory()
        let path = dir.file("sound.wav")
        #expect(mkfifo(path, 0o600) == 0)
        let r = try await armWithSound(path)
        expectSoundRefused(r, naming: path)
    }

    @Test("an unknown device: 69, pointing at wake --list-devices")
    func unknownDevice() async throws {
        let r = try await WakeProcess.run(["+1h", "-D", "nosuchdevice"], timeout: .seconds(10))
        #expect(!r.timedOut, "wake did not refuse the device at arm time: \(r)")
        #expect(r.exitCode == 69, "\(r)")
        #expect(r.stderr.contains("wake --list-devices"), "\(r)")
        #expect(r.stderr.contains("nosuchdevice"), "\(r)")
    }
}
