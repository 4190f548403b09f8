import Foundation
import Testing
import WakeCore
@testable import WakeRuntime
@testable import WakeTestSupport

/// The bedtime check's child process (issue 51): what the child prints for an alarm, and what the
/// daemon's side says when the child fails, hangs or cannot start; the checks themselves in a
/// real child are BedtimeCheckEndToEndTests'.
@Suite("Bedtime check in a child process")
struct BedtimeCheckProcessTests {
    static let alarm = BedtimeCheckTests.daily("work", 6, 30)
    static var subject: BedtimeCheck.Subject {
        .init(alarm: alarm, occurrence: RunnerTests.evening, notify: .off)
    }

    @Test("the child's side: each finding a line, then the end mark; input that is not the daemon's is refused (64)")
    func serve() throws {
        var alarm = Self.alarm
        alarm.options = ["device": "null"]
        let out = Console.LineCapture(), err = Console.LineCapture()
        let input = Array(("off\n" + AlarmBook.serialize([alarm])).utf8)
        let console = Console(capturing: out, errors: err, quiet: false)
        #expect(BedtimeCheckProcess.serve(input: input, config: ConfigDefaults(), console: console) == .done)
        let lines = out.lines.joined().split(separator: "\n").map(String.init)
        #expect(lines.last == "end", "\(lines)")
        let findings = lines.dropLast().map { DoctorFinding(line: $0) }
        #expect(!findings.isEmpty && findings.allSatisfy { $0?.alarms == ["work"] }, "\(lines)")

        let refused = Console.LineCapture()
        #expect(BedtimeCheckProcess.serve(input: Array("hello".utf8), config: ConfigDefaults(),
                                          console: Console(capturing: out, errors: refused, quiet: false)) == .failed(.usage))
        #expect(refused.lines.joined().contains("__bedtime-check is wake's own"), "\(refused.lines)")
    }

    @Test("a child that ends without its findings, or hangs past the limit, is a warning naming the alarm, and never a finding lost")
    func childFailures() throws {
        let dir = try TestDirectory("wake-bedtime-child")
        let hang = dir.file("hang")
        try "#!/bin/sh\nexec sleep 600\n".write(toFile: hang, atomically: true, encoding: .utf8)
        #expect(chmod(hang, 0o755) == 0)
        let early = BedtimeCheckProcess.findings(Self.subject, program: "/bin/false")
        #expect(early?.map(\.status) == [.warn] && early?.first?.found.contains("the bedtime check ended early") == true,
                "\(String(describing: early))")
        #expect(early?.first?.fix == "run 'wake doctor work' to see what it finds")
        let hung = BedtimeCheckProcess.findings(Self.subject, program: hang, limit: .seconds(1))
        #expect(hung?.first?.found.contains("did not end in 1s; it was stopped") == true, "\(String(describing: hung))")
        let missing = BedtimeCheckProcess.findings(Self.subject, program: dir.file("none"))
        #expect(missing?.first?.found.contains("could not start") == true, "\(String(describing: missing))")
    }
}
