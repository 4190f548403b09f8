/// One check of `wake doctor` (and of the daemon's bedtime check): what was looked at, how it
/// stands, what was found, and what to do. A value: the checks that find these touch the
/// machine; how they are judged, said and counted is decided here.
public struct DoctorFinding: Equatable, Sendable {
    /// PASS: nothing stands between this and a heard alarm. WARN: the alarm rings, but something
    /// is worse than it could be (no buttons, no RTC, a muted output the mixer guard will undo).
    /// FAIL: as things stand the alarm may not be heard, or may not ring at all.
    public enum Status: Int, Comparable, Sendable, CaseIterable {
        case pass = 0, warn = 1, fail = 2

        public var word: String {
            switch self {
            case .pass: "PASS"
            case .warn: "WARN"
            case .fail: "FAIL"
            }
        }

        public static func < (a: Status, b: Status) -> Bool { a.rawValue < b.rawValue }
    }

    /// The parts of the path from a set alarm to a heard one, in the order they are shown; then
    /// the hooks the alarms run.
    public enum Area: String, CaseIterable, Sendable {
        case files, daemon, time, sound, waking, notifications, hooks
    }

    public var area: Area
    /// A stable identifier for scripts (`sound.file`, `daemon.unit`): `--json`'s `check`.
    public var check: String
    /// The standing alarms it is about (several share a device or an output); empty for what
    /// every alarm shares.
    public var alarms: [String]
    public var status: Status
    /// What was found, one line.
    public var found: String
    /// What to do, one line; nil when there is nothing to do.
    public var fix: String?

    public init(_ area: Area, _ check: String, alarms: [String] = [], _ status: Status, _ found: String, fix: String? = nil) {
        self.area = area
        self.check = check
        self.alarms = alarms
        self.status = status
        self.found = found
        self.fix = fix
    }

    /// What identifies one problem for the bedtime check's "never twice": the check, the alarms
    /// and the status, not the words found (a muted sink whose level moved, or a device that fails
    /// another way, is the same problem tonight).
    public var problemKey: String { "\(check)|\(alarms.joined(separator: ","))|\(status.word)" }

    /// `findings` with those that say the same of several alarms (one device, one sink, one
    /// sound) said once, their alarms named together, where the first of them was.
    public static func merged(_ findings: [DoctorFinding]) -> [DoctorFinding] {
        var out: [DoctorFinding] = []
        for f in findings {
            if !f.alarms.isEmpty, let i = out.firstIndex(where: {
                !$0.alarms.isEmpty && $0.area == f.area && $0.check == f.check && $0.status == f.status && $0.found == f.found
                    && $0.fix == f.fix
            }) {
                out[i].alarms += f.alarms.filter { !out[i].alarms.contains($0) }
            } else {
                out.append(f)
            }
        }
        return out
    }
}

/// A whole run's findings: the exit status, the text and the JSON.
public struct DoctorReport: Equatable, Sendable {
    public var findings: [DoctorFinding]

    public init(_ findings: [DoctorFinding]) { self.findings = findings }

    /// The worst status found: the exit status is its number (0 all pass, 1 a warning, 2 a failure).
    public var worst: DoctorFinding.Status { findings.map(\.status).max() ?? .pass }

    /// The findings grouped by area, in the areas' order, each area's in the order found.
    public var ordered: [DoctorFinding] {
        DoctorFinding.Area.allCases.flatMap { area in findings.filter { $0.area == area } }
    }

    /// The text: one line per check (`PASS  sound     work: ...`), its fix under it, and a
    /// closing count. The checks write what they found as every message is written, each text
    /// from outside (a path, a sink's description) already escaped.
    public func lines() -> [String] {
        var lines: [String] = []
        for f in ordered {
            let subject = f.alarms.isEmpty ? "" : f.alarms.map { TerminalText.printable($0, limit: 40) }.joined(separator: ", ") + ": "
            lines.append("\(f.status.word)  \(f.area.rawValue.padded(to: 13)) \(subject)\(f.found)")
            if let fix = f.fix { lines.append(String(repeating: " ", count: 20) + localized("fix: {fix}", fix)) }
        }
        let count = { (s: DoctorFinding.Status) in findings.filter { $0.status == s }.count }
        let verdict: String
        switch worst {
        case .pass: verdict = localized("the alarms will be heard as far as wake can tell")
        case .warn: verdict = localized("the alarms ring, but see the warnings")
        // A refused hook stands between the alarm and the lamp, not the ear.
        case .fail where findings.allSatisfy({ $0.status != .fail || $0.area == .hooks }):
            verdict = localized("the alarms ring, but a hook will not run: see the failures")
        case .fail: verdict = localized("an alarm may not be heard: see the failures")
        }
        lines.append(localized("{checks} checks: {passed} passed, {warned} warned, {failed} failed; {verdict}", String(findings.count),
                               String(count(.pass)), String(count(.warn)), String(count(.fail)), verdict))
        return lines
    }

    /// `--json`: an array with one object per check, an object a line.
    public func json() -> [String] {
        let objects = ordered.map { f in
            JSONValue.object([
                ("area", .string(f.area.rawValue)), ("check", .string(f.check)),
                ("alarms", .array(f.alarms.map { .string($0) })), ("status", .string(f.status.word)),
                ("found", .string(f.found)), ("fix", .optional(f.fix)),
            ]).text
        }
        guard !objects.isEmpty else { return ["[]"] }
        return objects.enumerated().map { i, o in (i == 0 ? "[" : " ") + o + (i == objects.count - 1 ? "]" : ",") }
    }
}

extension String {
    fileprivate func padded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
