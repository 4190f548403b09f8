import Glibc

/// A screen's backlight, as the kernel lists it under `/sys/class/backlight` (`intel_backlight`,
/// `amdgpu_bl0`, `acpi_video0`): its name, its kind and its range. Read only: an ordinary user
/// sets it through logind (`SessionBrightness`), which checks the seat.
public struct Backlight: Hashable, Sendable {
    public var name: String
    /// The kernel's `type`: `firmware`, `platform` or `raw`.
    public var type: String
    /// `max_brightness`: the brightest level (the darkest is 0).
    public var highest: Int

    /// Where the backlights are listed; a test may point it elsewhere in debug builds.
    public static var directory: String {
        #if DEBUG
        if let d = getenv("WAKE_TEST_BACKLIGHT_DIR") { return String(cString: d) }
        #endif
        return "/sys/class/backlight"
    }

    /// Every backlight with a readable range, by name.
    public static func all() -> [Backlight] {
        DirectoryListing.names(in: directory).sorted().compactMap { name in
            guard let highest = number(name, "max_brightness"), highest > 0 else { return nil }
            return Backlight(name: name, type: text(name, "type") ?? "raw", highest: highest)
        }
    }

    /// The one a lit alarm sets: firmware's first, then the platform's, then a driver's own
    /// (`raw`), as the kernel's documentation of the class asks of user space (a laptop may
    /// list both `acpi_video0` and `intel_backlight`, one of which does nothing).
    public static func preferred() -> Backlight? {
        let rank = ["firmware": 0, "platform": 1, "raw": 2]
        return all().min { (rank[$0.type] ?? 3, $0.name) < (rank[$1.type] ?? 3, $1.name) }
    }

    /// Its level now (`brightness`: what was last set, the one logind writes).
    public func brightness() -> Int? { Self.number(name, "brightness") }

    private static func text(_ name: String, _ attribute: String) -> String? {
        guard let bytes = ZoneLoader.readProcFile("\(directory)/\(name)/\(attribute)") else { return nil }
        let s = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        return s.isEmpty ? nil : s
    }

    private static func number(_ name: String, _ attribute: String) -> Int? { text(name, attribute).flatMap { Int($0) } }
}
