import Foundation
import Testing

/// One door to the kernel (issue 38): the engine (Sources/WakeEngine) and the application
/// (Sources/WakeRuntime) reach the kernel and the C libraries through WakeSystem's wrappers, whose
/// calls go through the `syscall()` funnel that the fault hook reaches. A file may import Glibc
/// only when it is on the list below, with the reason it still needs it; the C modules (and
/// Foundation, which brings Glibc with it) not at all. And the engine never imports the
/// application: the dependency goes one way.
@Suite("Glibc only where a written list allows")
struct KernelDoorTests {
    /// The files that may import Glibc, and why. A file that no longer needs it leaves the list
    /// (the test says so); a new one needs a wrapper in WakeSystem rather than a line here.
    static let glibcAllowed: [String: String] = [
        // The engine: a signal number, and ALSA's errno-valued results.
        "WakeEngine/Output/BoundedCall.swift": "SIGTSTP, which stops the wait as it would the process",
        "WakeEngine/Output/OutputWorker.swift": "ALSA's write results are negative errno values (EAGAIN, EPIPE, ESTRPIPE)",
        // The application: calls not yet behind a wrapper (the files are being reworked for typed failures).
        "WakeRuntime/Config/ConfigDefaults.swift": "stat() and its errno for the config file's directory",
        "WakeRuntime/Console/Console.swift": "write() to stdout and stderr with EINTR, isatty",
        "WakeRuntime/Control/ControlEndpoint.swift": "getpid",
        "WakeRuntime/Control/ControlServer.swift": "unlink and geteuid for the socket; poll flags",
        "WakeRuntime/Daemon/StandingAlarmDaemon.swift": "getpid",
        "WakeRuntime/Notification/DesktopNotifier.swift": "getenv",
        "WakeRuntime/Session/AlarmSession.swift": "signal numbers, poll flags, STDIN_FILENO, lstat of the zone file",
        "WakeRuntime/OneOff/OneOffAlarm.swift": "access() for the event log's path and directory in a dry run",
        "WakeRuntime/Session/DefaultSound.swift": "sin, for the sound made when the built-in one cannot be read",
    ]

    /// Modules no file of the engine or the application imports: the C modules have wrappers in
    /// WakeSystem, and Foundation re-exports Glibc.
    static let forbidden: Set<String> = ["CLinux", "CALSA", "CSndFile", "CSystemd", "CPulse", "SystemPackage", "Foundation"]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Tests/WakeRuntimeTests
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources").path

    /// `import M`, `@preconcurrency import M`, `public import struct M.T`... (as CoreImportTests reads them).
    static var importLine: Regex<(Substring, Substring)> {
        #/^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)/#
    }

    /// Each Swift file under Sources/`target`, as "target/relative/path", with the modules it imports.
    static func imports(of target: String) throws -> [(file: String, modules: [String])] {
        let root = sources + "/" + target
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        return try files.map { file in
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            // Only lines that mention an import go through the (slow, in a debug build) regex.
            let modules = try text.split(separator: "\n").filter { $0.contains("import ") }.compactMap { line in
                try importLine.prefixMatch(in: line).map { String($0.output.1) }
            }
            return (target + "/" + file, modules)
        }
    }

    @Test func glibcOnlyWhereListed() throws {
        let files = try Self.imports(of: "WakeEngine") + Self.imports(of: "WakeRuntime")
        #expect(files.count > 30, "no sources found under \(Self.sources)")
        let importing = Set(files.filter { $0.modules.contains("Glibc") }.map(\.file))
        let unlisted = importing.subtracting(Self.glibcAllowed.keys).sorted()
        #expect(unlisted.isEmpty, "these import Glibc without a line in the list: use or add a WakeSystem wrapper (Poll, EventSignal, SystemClock.sleep, ...)\n\(unlisted.joined(separator: "\n"))")
        let stale = Set(Self.glibcAllowed.keys).subtracting(importing).sorted()
        #expect(stale.isEmpty, "these no longer import Glibc: take them off the list\n\(stale.joined(separator: "\n"))")
        let doors = files.flatMap { f in f.modules.filter(Self.forbidden.contains).map { "\(f.file): import \($0)" } }
        #expect(doors.isEmpty, "reach these through WakeSystem instead\n\(doors.joined(separator: "\n"))")
    }

    @Test func theEngineNeverImportsTheApplication() throws {
        let upward = try Self.imports(of: "WakeEngine").filter { $0.modules.contains("WakeRuntime") }.map(\.file)
        #expect(upward.isEmpty, "WakeEngine must not depend on WakeRuntime: \(upward)")
    }
}
