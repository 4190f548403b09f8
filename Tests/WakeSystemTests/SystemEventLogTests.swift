import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeSystem
@testable import WakeTestSupport

/// Issue 12, items 6, 9 and 11: what `--events` accepts, and a log that cannot be written.
@Suite("System: the event log")
struct SystemEventLogTests {
    let t = Instant(nanoseconds: 1_700_000_000_000_000_000)

    @Test("a regular file is created 0600 (its lines say when you sleep) and appended to")
    func regularFile() throws {
        let dir = try TestDirectory("wake-sys")
        let path = dir.file("events.jsonl")
        do { let log = try EventLog(path: path, zone: .utc); log.emit("one", at: t) }
        do { let log = try EventLog(path: path, zone: .utc); log.emit("two", at: t, [("n", .int(2))]) }
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 2 && text.contains("\"event\":\"one\"") && text.contains("\"n\":2"), "\(text)")
    }

    @Test("'-' is standard output")
    func dash() throws {
        let log = try EventLog(path: "-", zone: .utc)
        #expect(log.isStandardOutput)
        let file = try EventLog(path: "/dev/null", zone: .utc)
        #expect(!file.isStandardOutput)
    }

    @Test("/dev/full is refused at arm time, without writing anything, as ENOSPC")
    func devFull() {
        do {
            _ = try EventLog(path: "/dev/full", zone: .utc)
            Issue.record("/dev/full was accepted")
        } catch {
            #expect(error.errno == .noSpace, "\(error)")
            #expect(error.description.hasPrefix("cannot write the event log '/dev/full': a test write failed"), "\(error)")
        }
    }

    @Test("a directory is refused")
    func directory() throws {
        let dir = try TestDirectory("wake-sys")
        #expect(throws: EventLog.OpenError.self) { try EventLog(path: dir.path, zone: .utc) }
    }

    @Test("a FIFO with a reader is accepted; a reader that stops reading is reported once, and never blocks")
    func fifoWithReader() throws {
        let dir = try TestDirectory("wake-sys")
        let fifo = try makeFifo(dir, "f")
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        defer { close(reader) }
        let log = try EventLog(path: fifo, zone: .utc)
        final class Box: @unchecked Sendable { var lines: [String] = [] }
        let failures = Box()
        log.onWriteFailure = { failures.lines.append($0) }
        log.emit("first", at: t)
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = read(reader, &buf, buf.count)
        #expect(n > 0 && String(decoding: buf.prefix(max(0, n)), as: UTF8.self).contains("\"first\""))
        // Nobody reads now: the pipe fills (64 KiB), then writes fail with EAGAIN instead of waiting.
        for i in 0..<2000 { log.emit("filler", at: t, [("i", .int(Int64(i))), ("pad", .string(String(repeating: "x", count: 100)))]) }
        #expect(failures.lines.count == 1, "\(failures.lines)")
        #expect(failures.lines.first?.contains("its reader is not reading") == true)
        #expect(log.writeFailed)
    }

    @Test("a full file system is refused at arm time; filling up later is reported once")
    func fullDisk() throws {
        let dir = try TestDirectory("wake-sys")
        let mnt = dir.file("mnt")
        try FileManager.default.createDirectory(atPath: mnt, withIntermediateDirectories: true)
        // A real, tiny tmpfs (needs root; this suite's machine runs as root).
        guard mount("tmpfs", mnt, "tmpfs", 0, "size=64k") == 0 else {
            Issue.record("cannot mount a tmpfs here (errno \(errno)); the full-disk case is untested")
            return
        }
        defer { umount2(mnt, 2) }  // MNT_DETACH: the log may still hold a file open there
        let logPath = mnt + "/events.jsonl"
        let log = try EventLog(path: logPath, zone: .utc)
        final class Box: @unchecked Sendable { var lines: [String] = [] }
        let failures = Box()
        log.onWriteFailure = { failures.lines.append($0) }
        for i in 0..<2000 { log.emit("filler", at: t, [("i", .int(Int64(i))), ("pad", .string(String(repeating: "x", count: 100)))]) }
        #expect(failures.lines.count == 1, "\(failures.lines)")
        #expect(failures.lines.first?.contains("No space left on device") == true, "\(failures.lines)")
        // Now full: a new log there is refused before the alarm is set.
        do {
            _ = try EventLog(path: mnt + "/other.jsonl", zone: .utc)
            Issue.record("a log on a full file system was accepted")
        } catch {
            #expect(error.errno == .noSpace, "\(error)")
            #expect(error.reason.contains("is full") || error.reason.contains("No space"), "\(error)")
        }
    }
}
