import Glibc
import WakeCore

/// Finds the local time zone as glibc does (`TZ`, else `/etc/localtime`), but reports a `TZ` or
/// an `/etc/localtime` it cannot understand instead of silently falling back to UTC. Zone files
/// are opened with `RegularFile`, so a FIFO in their place is refused at once, never waited on.
public enum ZoneLoader {
    public static let zoneDirectory: String = {
        if let d = getenv("TZDIR") { return String(cString: d) }
        return "/usr/share/zoneinfo"
    }()

    /// Where the system's zone is; `local(tz:localtime:)` takes another for tests.
    public static let systemLocaltime = "/etc/localtime"

    /// The localtime file wake reads and watches: `/etc/localtime`. Debug builds honour
    /// `WAKE_TEST_LOCALTIME`, so tests replace the zone without touching the machine's.
    public static var localtimePath: String {
        #if DEBUG
        if let p = getenv("WAKE_TEST_LOCALTIME"), p.pointee != 0 { return String(cString: p) }
        #endif
        return systemLocaltime
    }

    /// True when `TZ` is set: it pins the zone, and the machine's zone is not watched.
    public static var zonePinned: Bool { getenv("TZ") != nil }

    struct ZoneProblem: Error { var reason: String }

    /// A zone by name, or why there is none: "unknown time zone", or what is wrong with the file
    /// the name leads to ("'/usr/share/zoneinfo/X' is a FIFO, not a regular file").
    static func load(named spec: String, zoneDirectory: String) -> Result<TimeZoneRules, ZoneProblem> {
        var name = spec
        if name.hasPrefix(":") { name.removeFirst() }
        if name.isEmpty { return .success(.utc) }
        var fileProblem: String?
        if !name.contains("..") {
            let path = name.hasPrefix("/") ? name : zoneDirectory + "/" + name
            do {
                let bytes = try RegularFile.readAll(path)
                do { return .success(try TimeZoneRules(name: name, tzif: bytes)) } catch {
                    fileProblem = "'\(path.printable)': \(error)"
                }
            } catch where error.errno != .noSuchFileOrDirectory && error.errno != .notDirectory {
                fileProblem = error.description
            } catch {}
        }
        if let rule = try? PosixTimeZoneRule(name) { return .success(TimeZoneRules(name: name, posix: rule)) }
        return .failure(ZoneProblem(reason: fileProblem ?? "unknown time zone"))
    }

    /// The local zone, and a warning line when `TZ` names nothing usable.
    public static func local() -> (zone: TimeZoneRules, warning: String?) {
        local(tz: getenv("TZ").map { String(cString: $0) }, localtime: localtimePath, zoneDirectory: zoneDirectory)
    }

    /// The local zone for a given `TZ` value (nil: unset) and localtime file, and a warning line
    /// when either names nothing usable. A missing localtime file means UTC without a word, as
    /// in glibc; one that exists but cannot be used (not TZif, a FIFO, a directory, a link to
    /// nothing) means UTC with a warning naming it.
    public static func local(tz: String?, localtime: String, zoneDirectory: String) -> (zone: TimeZoneRules, warning: String?) {
        if let spec = tz {
            switch load(named: spec, zoneDirectory: zoneDirectory) {
            case .success(let z): return (z, nil)
            case .failure(let p):
                let why = p.reason == "unknown time zone" ? "unknown time zone TZ='\(spec.printable)'" : "cannot use TZ='\(spec.printable)': \(p.reason)"
                return (.utc, "\(why); using UTC. Set TZ to a name under \(zoneDirectory), such as Europe/Berlin, or unset it")
            }
        }
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.readAll(localtime)
        } catch {
            if error.errno == .noSuchFileOrDirectory {
                guard let target = linkTarget(localtime) else { return (.utc, nil) }  // no file at all: UTC, as glibc
                return (.utc, localtimeWarning(localtime, "it is a link to '\(target.printable)', which does not exist"))
            }
            return (.utc, localtimeWarning(localtime, error.reason.hasPrefix("is ") ? "it " + error.reason : error.reason))
        }
        do {
            return (try TimeZoneRules(name: localName(localtime), tzif: bytes), nil)
        } catch {
            return (.utc, localtimeWarning(localtime, error.description))
        }
    }

    private static func localtimeWarning(_ path: String, _ reason: String) -> String {
        "cannot read the local time zone from \(path.printable): \(reason); using UTC. "
            + "Link it to a zone (ln -sf /usr/share/zoneinfo/Europe/Berlin \(path.printable)) or set TZ"
    }

    private static func linkTarget(_ path: String) -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buf, buf.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buf.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The zone's name from the link's target: what follows its last `zoneinfo` component, with
    /// empty components dropped (`/usr/share/zoneinfo//Europe/Paris` → `Europe/Paris`). Walked
    /// byte by byte: split, map and joined cost every `wake list` generic instantiations at run
    /// time, a few percent of its own time.
    private static func localName(_ path: String) -> String {
        guard let target = linkTarget(path) else { return "localtime" }
        let bytes = Array(target.utf8), slash = UInt8(ascii: "/")
        var start = 0, after: Int?
        for i in 0...bytes.count where i == bytes.count || bytes[i] == slash {
            if bytes[start..<i].elementsEqual("zoneinfo".utf8) { after = i }
            start = i + 1
        }
        guard let after else { return target }
        var name: [UInt8] = []
        for b in bytes[after...] where b != slash || (!name.isEmpty && name.last != slash) { name.append(b) }
        if name.last == slash { name.removeLast() }
        return String(decoding: name, as: UTF8.self)
    }
}
