import Glibc
import WakeCore

/// Finds the local time zone as glibc does (`TZ`, else `/etc/localtime`), but reports a `TZ`
/// it cannot understand instead of silently falling back to UTC.
public enum ZoneLoader {
    public static let zoneDirectory: String = {
        if let d = getenv("TZDIR") { return String(cString: d) }
        return "/usr/share/zoneinfo"
    }()

    public static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size < 1 << 20 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
            if n <= 0 { return nil }
            got += n
        }
        return bytes
    }

    /// A zone by name (`Europe/Berlin`), absolute TZif path, or POSIX rule (`CET-1CEST,M3.5.0,M10.5.0/3`).
    public static func zone(named spec: String) -> TimeZoneRules? {
        var name = spec
        if name.hasPrefix(":") { name.removeFirst() }
        if name.isEmpty { return .utc }
        let path = name.hasPrefix("/") ? name : zoneDirectory + "/" + name
        if !name.contains(".."), let bytes = readFile(path), let rules = try? TimeZoneRules(name: name, tzif: bytes) {
            return rules
        }
        if let rule = try? PosixTimeZoneRule(name) { return TimeZoneRules(name: name, posix: rule) }
        return nil
    }

    /// The local zone, and a warning line when `TZ` names nothing usable.
    public static func local() -> (zone: TimeZoneRules, warning: String?) {
        if let tz = getenv("TZ") {
            let spec = String(cString: tz)
            if let z = zone(named: spec) { return (z, nil) }
            return (.utc, "unknown time zone TZ='\(spec.printable)'; using UTC. Set TZ to a name under \(zoneDirectory), such as Europe/Berlin, or unset it")
        }
        if let bytes = readFile("/etc/localtime"), let z = try? TimeZoneRules(name: localName(), tzif: bytes) {
            return (z, nil)
        }
        return (.utc, nil)
    }

    private static func localName() -> String {
        var buf = [CChar](repeating: 0, count: 512)
        let n = readlink("/etc/localtime", &buf, 511)
        guard n > 0 else { return "localtime" }
        let target = String(decoding: buf.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let parts = target.split(separator: "/").map(String.init)
        if let i = parts.lastIndex(of: "zoneinfo") { return parts[(i + 1)...].joined(separator: "/") }
        return target
    }
}
