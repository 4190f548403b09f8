import Glibc
import WakeCore
import WakeSystem

/// Where wake's words go: information on stdout (silenced by --quiet), problems on stderr
/// (always), and on a terminal a status line redrawn in place. When stdout carries the JSON
/// event stream (`--events -`), every human line goes to stderr so the stream always parses.
/// Every line passes through `TerminalText.sanitizeLine` here, the one place untrusted text
/// is escaped on its way to a terminal; JSON (`json`) is escaped by `JSONValue` instead.
public final class Console {
    public let quiet: Bool
    private let infoFD: Int32
    public let statusFD: Int32?
    private var statusShown = false
    /// In tests, every line lands here instead of on a descriptor.
    private let capture: LineCapture?
    /// With `capture`: where the lines for stderr land instead, when apart (`init(capturing:errors:)`).
    private let errorCapture: LineCapture?
    private let infoIsError: Bool

    public init(quiet: Bool, stdoutIsEventStream: Bool = false) {
        self.quiet = quiet
        infoFD = stdoutIsEventStream ? STDERR_FILENO : STDOUT_FILENO
        statusFD = isatty(infoFD) == 1 ? infoFD : nil
        capture = nil
        errorCapture = nil
        infoIsError = false
    }

    /// A console whose lines a test reads: information as it is, problems with "wake: ".
    public init(capturing capture: LineCapture) {
        quiet = false
        infoFD = -1
        statusFD = nil
        self.capture = capture
        errorCapture = nil
        infoIsError = false
    }

    /// A console whose stdout and stderr a test reads apart, as a command's run in process: the
    /// lines each descriptor would have had, with `quiet` and the event stream's move of the human
    /// lines to stderr as the real one does.
    public init(capturing output: LineCapture, errors: LineCapture, quiet: Bool, stdoutIsEventStream: Bool = false) {
        self.quiet = quiet
        infoFD = -1
        statusFD = nil
        capture = output
        errorCapture = errors
        infoIsError = stdoutIsEventStream
    }

    /// This console with its information lines and status line silenced (`wake sleep` runs the
    /// alarm's sound path, whose words are an alarm's): problems still go where they go here.
    public var quieted: Console { Console(quieting: self) }

    private init(quieting other: Console) {
        quiet = true
        infoFD = other.infoFD
        statusFD = other.statusFD
        capture = other.capture
        errorCapture = other.errorCapture
        infoIsError = other.infoIsError
    }

    /// Where a line for the info descriptor lands when captured.
    private var infoCapture: LineCapture? { infoIsError ? errorCapture : capture }

    /// The lines a capturing console wrote, in order.
    public final class LineCapture {
        public private(set) var lines: [String] = []
        public init() {}
        func append(_ line: String) { lines.append(line) }
    }

    /// Writes ignoring failure: a closed or broken stdout must not stop an alarm (SIGPIPE is ignored).
    public static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            done += n
        }
    }

    public func info(_ line: String) {
        guard !quiet else { return }
        if let capture = infoCapture { return capture.append(TerminalText.sanitizeLine(line)) }
        clearStatus()
        Self.write(infoFD, TerminalText.sanitizeLine(line) + "\n")
    }

    /// Output that is the point of the command (dry run, device list): printed even with --quiet.
    public func result(_ line: String) { results([line]) }

    /// Several result lines in one write: a table is one system call, not one per row.
    public func results(_ lines: [String]) {
        if let capture = infoCapture { return lines.forEach { capture.append(TerminalText.sanitizeLine($0)) } }
        clearStatus()
        Self.write(infoFD, lines.map { TerminalText.sanitizeLine($0) + "\n" }.concatenated())
    }

    /// A JSON document (`wake list --json`), printed as `JSONValue` writes it: the sanitizer's
    /// `\x9b` would make it invalid, and `JSONValue` already escapes every character a terminal
    /// acts on, as JSON escapes.
    public func json(_ document: JSONValue) {
        let text = document.text
        if let capture = infoCapture { return capture.append(text) }
        clearStatus()
        Self.write(infoFD, text + "\n")
    }

    /// A JSON document that is the command's answer (`wake test --json`): on stdout even when the
    /// human lines go to stderr.
    public func answer(_ document: JSONValue) {
        let text = document.text
        if let capture { return capture.append(text) }
        clearStatus()
        Self.write(STDOUT_FILENO, text + "\n")
    }

    /// A file's text that is the command's answer (`wake holidays import -o -`), on stdout byte
    /// for byte into a pipe or a file; on a terminal each line is escaped as any other (the text
    /// holds what another program said).
    public func file(_ text: String) {
        if let capture { return capture.append(text) }
        clearStatus()
        guard isatty(STDOUT_FILENO) == 1 else { return Self.write(STDOUT_FILENO, text) }
        Self.write(STDOUT_FILENO, text.split(separator: "\n", omittingEmptySubsequences: false).map {
            TerminalText.sanitizeLine(String($0.hasSuffix("\r") ? $0.dropLast() : $0))
        }.joined(separator: "\n"))
    }

    /// Text a generator made for stdout (swift-argument-parser's help and completion scripts),
    /// written as it is, as `print` would.
    public func text(_ text: String) {
        if let capture { return capture.append(text) }
        clearStatus()
        Self.write(STDOUT_FILENO, text)
    }

    public func error(_ line: String) {
        if let capture = errorCapture ?? capture { return capture.append("wake: " + TerminalText.sanitizeLine(line)) }
        clearStatus()
        Self.write(STDERR_FILENO, "wake: " + TerminalText.sanitizeLine(line) + "\n")
    }

    public var showsStatus: Bool { statusFD != nil && !quiet }

    /// Redraws the status line, fitted to the terminal's width so it never wraps.
    public func status(_ render: (Int?) -> String) {
        guard showsStatus, let fd = statusFD else { return }
        let line = TerminalText.sanitizeLine(render(Terminal.columns(of: fd)))
        Self.write(fd, "\r\u{1B}[K" + line)
        statusShown = true
    }

    public func clearStatus() {
        guard statusShown, let fd = statusFD else { return }
        Self.write(fd, "\r\u{1B}[K")
        statusShown = false
    }
}
