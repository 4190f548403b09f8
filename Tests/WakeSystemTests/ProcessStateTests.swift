import Foundation
import Glibc
import Testing
@testable import WakeSystem
@testable import WakeTestSupport

/// Issue 49, item 6: process-wide state (the umask, the working directory, the environment,
/// signal dispositions and the mask, the locale, resource limits) is shared by every thread of
/// the daemon and every parallel test. A umask changed around one `bind()` made a file another
/// thread wrote at that moment 0600 (the alarm-timer helper, which then could not be run), so
/// only `ProcessStart` may change that state, at start-up before any thread; a test that needs
/// other process state runs its code in a child process.
@Suite("Process-wide state changes only at start-up")
struct ProcessStateTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Tests/WakeSystemTests
        .deletingLastPathComponent().deletingLastPathComponent()
    static let thisFile = URL(fileURLWithPath: #filePath).standardizedFileURL.path

    /// The one file that may: the executable's start-up calls it before any thread exists.
    static let allowed: Set<String> = ["Sources/WakeSystem/ProcessStart.swift"]

    /// Calls that change only the calling thread's own state, each where it is made on the thread
    /// it is for: the hook and bedtime-check threads block SIGPIPE for themselves (a child that
    /// ends without reading its input), which a test runner, unlike wake, does not ignore.
    static let ownThread: Set<String> = ["Sources/WakeSystem/HookProcess.swift pthread_sigmask("]

    /// Calls that change state every thread shares.
    static let changing = ["umask(", "chdir(", "fchdir(", "setenv(", "unsetenv(", "putenv(", "clearenv(", "setlocale(",
                           "setrlimit(", "pthread_sigmask(", "sigprocmask(", "signal(SIG",
                           "bindtextdomain(", "bind_textdomain_codeset(", "textdomain("]

    /// Where `line` calls one of them (a word of its own: `wake_setenv(` is another name; not
    /// inside a string, such as a child's Python), or sets a signal's action
    /// (`sigaction(s, nil, &old)` only reads it).
    static func changes(_ line: Substring) -> String? {
        let code = line.drop { $0 == " " }
        if code.hasPrefix("//") || code.hasPrefix("*") || code.hasPrefix("/*") { return nil }
        for call in changing {
            var rest = code[...]
            while let r = rest.range(of: call) {
                let before = code[..<r.lowerBound]
                let inString = before.filter { $0 == "\"" }.count % 2 == 1
                if !inString, before.last.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return call }
                rest = rest[r.upperBound...]
            }
        }
        if let r = code.range(of: "sigaction("), !code[r.upperBound...].hasPrefix(")"),
           !code[r.upperBound...].contains(", nil,") {
            return "sigaction("
        }
        return nil
    }

    static func files(under folder: String, extensions: Set<String>) throws -> [String] {
        let base = root.appendingPathComponent(folder).path
        let found = try #require(FileManager.default.enumerator(atPath: base)).compactMap { $0 as? String }
        return found.filter { extensions.contains(URL(fileURLWithPath: $0).pathExtension) }.map { folder + "/" + $0 }.sorted()
    }

    @Test("only ProcessStart changes process-wide state, in Sources and in Tests")
    func onlyAtStart() throws {
        // The alarm-timer helper is a program of its own (its main may set what it likes).
        let sources = try Self.files(under: "Sources", extensions: ["swift", "c", "h"])
            .filter { !$0.hasPrefix("Sources/wake-alarm-timer/") }
        let tests = try Self.files(under: "Tests", extensions: ["swift"])
        #expect(sources.count > 100 && tests.count > 100, "no sources found under \(Self.root.path)")
        var found: [String] = []
        for file in sources + tests where !Self.allowed.contains(file) {
            let path = Self.root.appendingPathComponent(file).standardizedFileURL.path
            guard path != Self.thisFile else { continue }
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if let call = Self.changes(line), !Self.ownThread.contains("\(file) \(call)") {
                    found.append("\(file):\(n + 1): \(call)")
                }
            }
        }
        #expect(found.isEmpty, """
            these change process-wide state that other threads and parallel tests share; set it in ProcessStart at \
            start-up, pass it as a value (an address, a path, an environment for a child), or run the code in a child process:
            \(found.joined(separator: "\n"))
            """)
    }

    @Test("the scan sees a call, and not a comment, a longer name or a read")
    func scanner() {
        #expect(Self.changes("    let old = umask(0o177)") == "umask(")
        #expect(Self.changes("if x { Glibc.setenv(\"A\", \"1\", 1) }") == "setenv(")
        #expect(Self.changes("        signal(SIGPIPE, SIG_IGN)") == "signal(SIG")
        #expect(Self.changes("    sigaction(SIGINT, &action, nil)") == "sigaction(")
        #expect(Self.changes("    // umask(0) would race") == nil)
        #expect(Self.changes("    wake_setenv(x)") == nil)
        #expect(Self.changes("    guard sigaction(signal, nil, &old) == 0 else { return false }") == nil)
        #expect(Self.changes("    var old = sigaction()") == nil)
        #expect(Self.changes("    try python(\"resource.setrlimit(resource.RLIMIT_NOFILE, (12, 12))\")") == nil)
    }

    /// The process's umask as the kernel reports it (reading it with umask() would change it).
    static func umaskNow() throws -> String? {
        try String(contentsOfFile: "/proc/self/status", encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("Umask:") }.map { String($0.dropFirst(6).drop { $0 == "\t" || $0 == " " }) }
    }

    @Test("a control socket is 0600 from its chmod, with the umask left as it was")
    func socketMode() throws {
        let dir = try TestDirectory("wake-sys")
        let before = try Self.umaskNow()
        let socket = try UnixSocket.listen(at: dir.file("control.sock"))
        _ = socket
        var st = stat()
        #expect(lstat(dir.file("control.sock"), &st) == 0)
        #expect(st.st_mode & S_IFMT == S_IFSOCK && st.st_mode & 0o777 == 0o600, "mode \(String(st.st_mode & 0o777, radix: 8))")
        #expect(try Self.umaskNow() == before && before != nil)
    }
}
