/// The file a lit alarm writes before it first changes the backlight (`light-PID.state` under
/// the state home, beside the mixer's), so that when it is killed mid-ring the next wake to
/// start puts the screen back as it was.
///
/// ```
/// # wake: the backlight a lit alarm changed, put back by the next wake to start once it is gone.
/// owner	4242	1234567	6f1c0a4e-...
/// backlight	intel_backlight	4800	19393
/// ```
///
/// `owner` as `MixerSaveFile`'s. `backlight`: the device's name, its level before wake changed
/// it, and its highest then: a device whose range is not that any more is not the one saved,
/// and is not set. Strict, never traps: anything else is a `ParseError` with its line.
public struct LightSaveFile: Hashable, Sendable {
    public var owner: MixerSaveFile.Owner
    public var device: String
    public var saved: Int
    public var highest: Int

    public init(owner: MixerSaveFile.Owner, device: String, saved: Int, highest: Int) {
        self.owner = owner; self.device = device; self.saved = saved; self.highest = highest
    }

    public func serialize() -> String {
        "# wake: the backlight a lit alarm changed, put back by the next wake to start once it is gone.\n"
            + "owner\t\(owner.pid)\t\(owner.startTicks)\t\(owner.bootID)\n"
            + "backlight\t\(device)\t\(saved)\t\(highest)\n"
    }

    /// A device name as the kernel gives one: a file name, so no slash, and nothing the format
    /// or a terminal would take for its own.
    public static func storable(_ name: String) -> Bool {
        MixerSaveFile.storable(name) && !name.contains("/") && name != "." && name != ".."
    }

    public static func parse(_ text: String) throws(MixerSaveFile.ParseError) -> LightSaveFile {
        var owner: MixerSaveFile.Owner?
        var light: (device: String, saved: Int, highest: Int)?
        var n = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            n += 1
            if raw.isEmpty || raw.hasPrefix("#") { continue }
            let f = raw.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            func fail(_ m: String) -> MixerSaveFile.ParseError { MixerSaveFile.ParseError(line: n, message: m) }
            switch f[0] {
            case "owner":
                guard owner == nil else { throw fail("a second owner line") }
                guard f.count == 4, let pid = Int32(f[1]), pid > 0, let start = UInt64(f[2]), !f[3].isEmpty else {
                    throw fail("owner takes a process ID, its start time and the boot ID")
                }
                owner = MixerSaveFile.Owner(pid: pid, startTicks: start, bootID: f[3])
            case "backlight":
                guard light == nil else { throw fail("a second backlight line") }
                guard f.count == 4, storable(f[1]) else { throw fail("backlight takes a device name, its saved level and its highest") }
                guard let highest = Int(f[3]), highest > 0, let saved = Int(f[2]), (0...highest).contains(saved) else {
                    throw fail("the saved level '\(TerminalText.printable(f[2], limit: 20))' is not within 0 to "
                               + "'\(TerminalText.printable(f[3], limit: 20))'")
                }
                light = (f[1], saved, highest)
            default:
                throw fail("unknown line '\(TerminalText.printable(f[0], limit: 20))'")
            }
        }
        guard let owner else { throw MixerSaveFile.ParseError(line: n, message: "no owner line") }
        guard let light else { throw MixerSaveFile.ParseError(line: n, message: "no backlight line") }
        return LightSaveFile(owner: owner, device: light.device, saved: light.saved, highest: light.highest)
    }
}
