import Glibc

/// What `--wake-system` needs: the CAP_WAKE_ALARM capability and a real-time clock that can
/// raise the machine from suspend. Checked before the wait, so the user hears why at once.
public enum WakeAlarmCapability {
    public static let capWakeAlarm = 35

    /// This process's `/proc/self/status`, empty when it cannot be read.
    public static func processStatus() -> String {
        ZoneLoader.readProcFile("/proc/self/status").map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The effective capability set of this process, from its status (0 when it says none).
    public static func effectiveCapabilities(status: String = processStatus()) -> UInt64 {
        WakeSystemSupport.statusField("CapEff", in: status).flatMap { UInt64($0, radix: 16) } ?? 0
    }

    public static func holdsWakeAlarm(_ capabilities: UInt64) -> Bool { capabilities & (1 << UInt64(capWakeAlarm)) != 0 }

    /// Where the RTCs are listed; a test may point it elsewhere in debug builds.
    static var rtcDirectory: String {
        #if DEBUG
        if let d = getenv("WAKE_TEST_RTC_DIR") { return String(cString: d) }
        #endif
        return "/sys/class/rtc"
    }

    /// The names of the RTC devices (`rtc0`), from /sys/class/rtc and /dev/rtc*, empty when the
    /// machine has none. (A test's directory, in debug builds, is the only place looked at.)
    public static func realTimeClocks() -> [String] {
        var names = Set(DirectoryListing.names(in: rtcDirectory).filter { $0.hasPrefix("rtc") })
        #if DEBUG
        if getenv("WAKE_TEST_RTC_DIR") != nil { return names.sorted() }
        #endif
        names.formUnion(DirectoryListing.names(in: "/dev").filter { $0.hasPrefix("rtc") && $0.count > 3 && $0.dropFirst(3).allSatisfy(\.isNumber) })
        return names.sorted()
    }
}

extension ZoneLoader {
    /// Reads a /proc file, whose size stat reports as 0.
    static func readProcFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            if n <= 0 { break }
            out += buf[0..<n]
        }
        return out
    }
}
