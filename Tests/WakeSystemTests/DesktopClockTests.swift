import Foundation
import Testing
@testable import WakeCore
@testable import WakeSystem
@testable import WakeTestSupport

/// Issue 55: `clock = "locale"` follows the desktop's own 12/24-hour setting where the session
/// keeps one (GNOME's `clock-format`, in the user's dconf database), read from a database the
/// real dconf writes (`dconf compile`, the same format as `dconf write` and GNOME's Settings).
@Suite("The desktop's clock format", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dconf"), "needs dconf-cli"))
struct DesktopClockTests {
    /// A config home whose dconf/user holds `keyfile` (dconf's keyfile syntax), compiled by dconf.
    static func configHome(_ keyfile: String) async throws -> TestDirectory {
        let dir = try TestDirectory("wake-dconf")
        try FileManager.default.createDirectory(atPath: dir.file("keys"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.file("dconf"), withIntermediateDirectories: true)
        _ = try dir.write("keys/00", Array(keyfile.utf8))
        let r = try await ChildProcess("/usr/bin/dconf", ["compile", dir.file("dconf/user"), dir.file("keys")]).wait()
        #expect(r.exitCode == 0, "dconf compile: \(r)")
        return dir
    }

    static let busy = """
        [org/gnome/desktop/wm/preferences]
        button-layout='close'

        [org/gnome/desktop/interface]
        color-scheme='prefer-dark'
        clock-show-seconds=true
        clock-format='12h'

        [org/gnome/shell]
        favorite-apps=['firefox.desktop', 'org.gnome.Terminal.desktop']
        """

    @Test("GNOME's clock-format among other settings, 12h and 24h; none set, another type, or no database: nil")
    func readsTheKey() async throws {
        let evening = try await Self.configHome(Self.busy)  // kept: the directory goes with the value
        #expect(DesktopClock.clockFormat(configHome: evening.path) == "12h")
        let day = try await Self.configHome("[org/gnome/desktop/interface]\nclock-format='24h'\n")
        #expect(DesktopClock.clockFormat(configHome: day.path) == "24h")
        let other = try await Self.configHome("[org/gnome/desktop/interface]\ncolor-scheme='default'\n")
        #expect(DesktopClock.clockFormat(configHome: other.path) == nil)
        let number = try await Self.configHome("[org/gnome/desktop/interface]\nclock-format=12\n")
        #expect(DesktopClock.clockFormat(configHome: number.path) == nil)
        let empty = try TestDirectory()
        #expect(DesktopClock.clockFormat(configHome: empty.path) == nil)
    }

    @Test("a database cut short anywhere, or with its bytes changed, is read without a trap")
    func damagedDatabase() async throws {
        let dir = try await Self.configHome(Self.busy)
        let bytes = try RegularFile.readAll(dir.file("dconf/user"))
        let key = "/org/gnome/desktop/interface/clock-format"
        #expect(DconfDatabase.string(at: key, in: bytes) == "12h")
        for n in 0..<bytes.count { _ = DconfDatabase.string(at: key, in: Array(bytes[0..<n])) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var damaged = bytes
            for _ in 0..<3 { damaged[Int.random(in: 24..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = DconfDatabase.string(at: key, in: damaged)
        }
        #expect(DconfDatabase.string(at: key, in: Array("GVariant".utf8) + [UInt8](repeating: 0xFF, count: 64)) == nil)
    }

    @Test("under clock = \"locale\" the desktop's setting takes the hours, the locale the date's order; the file's own clock wins")
    func desktopOverLocale() {
        let german = (time: "%T", date: "%d.%m.%Y"), american = (time: "%r", date: "%m/%d/%Y")
        #expect(LocaleClock.style(setting: nil, formats: german, desktop: "12h") == ClockStyle(twelveHour: true, monthFirst: false))
        #expect(LocaleClock.style(setting: "locale", formats: american, desktop: "24h") == ClockStyle(twelveHour: false, monthFirst: true))
        #expect(LocaleClock.style(setting: "24h", formats: german, desktop: "12h") == ClockStyle(twelveHour: false, monthFirst: false))
        #expect(LocaleClock.style(setting: nil, formats: nil, desktop: "12h") == ClockStyle(twelveHour: true, monthFirst: false))
        #expect(LocaleClock.style(setting: nil, formats: american) == ClockStyle(twelveHour: true, monthFirst: true))
    }
}
