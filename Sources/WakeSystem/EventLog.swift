import Glibc
import WakeCore

/// The machine-readable record of what the alarm did: one JSON object per line (`--events`).
public final class EventLog {
    public enum Value {
        case string(String)
        case int(Int64)
        case bool(Bool)
        /// Milliseconds to the microsecond: `0.412`, `-3.000`.
        case milliseconds(Duration)
    }

    private let fd: Int32
    private let ownsFD: Bool
    private let zone: TimeZoneRules

    /// `-` means stderr. The file is appended to, so a series of alarms can share one log.
    public init(path: String, zone: TimeZoneRules) throws(SystemCallError) {
        self.zone = zone
        if path == "-" {
            fd = STDERR_FILENO
            ownsFD = false
        } else {
            fd = try syscall("open") { open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) }
            ownsFD = true
        }
    }

    deinit { if ownsFD { close(fd) } }

    public func emit(_ event: String, at time: Instant, _ fields: [(String, Value)] = []) {
        var line = "{\"event\":\(EventLog.quote(event)),\"time\":\(EventLog.quote(Formatting.iso8601(time, zone: zone, milliseconds: true)))"
        for (k, v) in fields {
            line += ",\(EventLog.quote(k)):"
            switch v {
            case .string(let s): line += EventLog.quote(s)
            case .int(let i): line += String(i)
            case .bool(let b): line += b ? "true" : "false"
            case .milliseconds(let d):
                let us = (d.nanoseconds + (d.nanoseconds >= 0 ? 500 : -500)) / 1000
                let a = abs(us)
                line += (us < 0 ? "-" : "") + "\(a / 1000)." + String(a % 1000).leftPadded(to: 3)
            }
        }
        line += "}\n"
        var bytes = Array(line.utf8)
        _ = Glibc.write(fd, &bytes, bytes.count)  // one write per line: lines never interleave
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += u.value < 0x10 ? "\\u000" : "\\u001"; out += String(u.value % 16, radix: 16) }
                else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
