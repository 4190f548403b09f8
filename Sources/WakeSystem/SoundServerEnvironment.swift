import Glibc

/// Finding the user's sound server (PulseAudio or PipeWire) when wake runs outside the desktop
/// session: from cron, `at`, ssh or a systemd unit, `XDG_RUNTIME_DIR` is often unset, so the
/// ALSA `pulse`/`pipewire` plugins behind `default` find no server and ALSA reports "no such
/// device". The runtime directory is nearly always `/run/user/<uid>` (made by logind).
public enum SoundServerEnvironment {
    public static let runtimeBase = "/run/user"

    enum Decision: Equatable {
        case alreadySet
        case use(String)
        case note(String)
    }

    /// What `ProcessStart.begin` sets: wake's stream named (`streamNaming`), and
    /// `XDG_RUNTIME_DIR` as `/run/user/<uid>` when it is unset and that directory is safe to
    /// use: a real directory (not a link), owned by this user, not writable by group or others.
    /// Why the server cannot be found otherwise is said only if a device behind it fails
    /// (`explainUnreachable`).
    static func assignments() -> [ProcessStart.Assignment] {
        let current = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        let runtime: [ProcessStart.Assignment]
        if case .use(let dir) = decide(current: current, base: runtimeBase, uid: getuid()) {
            runtime = [.init("XDG_RUNTIME_DIR", dir)]
        } else {
            runtime = []
        }
        return streamNaming(userProperties: getenv("PULSE_PROP").map { String(cString: $0) } ?? "") + runtime
    }

    /// What wake's stream says about itself on a sound server (the volume control shows "wake";
    /// `media.role` "alarm" is what the server's policies and stream restore key on).
    public static let streamProperties = "application.name='wake' media.role='alarm' application.icon_name='alarm-clock'"

    /// Names wake's stream on the sound server: libpulse (behind ALSA's pulse plugin, and wake's
    /// own client) adds `PULSE_PROP` to every context's properties where they are not set yet,
    /// and `PULSE_PROP_OVERRIDE_<key>` over what is set: the plugin names its context "ALSA
    /// plug-in [wake]". A user's own `PULSE_PROP` comes after, so it wins.
    static func streamNaming(userProperties user: String) -> [ProcessStart.Assignment] {
        [.init("PULSE_PROP", user.isEmpty ? streamProperties : streamProperties + " " + user),
         .init("PULSE_PROP_OVERRIDE_application.name", "wake", overwrite: false)]
    }

    static func decide(current: String?, base: String, uid: uid_t) -> Decision {
        if let current, !current.isEmpty { return .alreadySet }
        let dir = "\(base)/\(uid)"
        var st = stat()
        guard lstat(dir, &st) == 0 else {
            return .note("XDG_RUNTIME_DIR is unset and \(dir) does not exist, so the sound server (PulseAudio/PipeWire) cannot be found; "
                + "only direct ALSA devices (hw:, plughw:) can ring")
        }
        let why: String?
        if (st.st_mode & S_IFMT) != S_IFDIR { why = "is not a directory" }
        else if st.st_uid != uid { why = "belongs to user \(st.st_uid), not to you (\(uid))" }
        else if st.st_mode & 0o022 != 0 { why = "is writable by others" }
        else { why = nil }
        if let why {
            return .note("XDG_RUNTIME_DIR is unset and \(dir) \(why), so it is not used; the sound server (PulseAudio/PipeWire) "
                + "cannot be found, and only direct ALSA devices (hw:, plughw:) can ring")
        }
        return .use(dir)
    }

    /// The likely cause when opening `device` failed because no sound server could be reached,
    /// or nil when that is not the likely cause (another device, or a server that is there).
    public static func explainUnreachable(device: String) -> String? {
        func env(_ n: String) -> String? { getenv(n).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        return explainUnreachable(device: device, runtimeDir: env("XDG_RUNTIME_DIR"), pulseServer: env("PULSE_SERVER"),
                                  base: runtimeBase, uid: getuid())
    }

    static func explainUnreachable(device: String, runtimeDir: String?, pulseServer: String?, base: String, uid: uid_t) -> String? {
        // Only the bare server-backed names: `default:CARD=x` names a card, not the server.
        guard ["default", "pulse", "pipewire"].contains(device), pulseServer == nil else { return nil }
        let fix = "run wake from your desktop session or set XDG_RUNTIME_DIR"
        guard let runtimeDir else {
            let dir = "\(base)/\(uid)"
            let state = RegularFile.kind(of: dir) == nil ? "does not exist" : "was not usable"
            return "XDG_RUNTIME_DIR is unset and \(dir) \(state), so the sound server (PulseAudio/PipeWire) cannot be found; \(fix)"
        }
        let sockets = ["\(runtimeDir)/pulse/native", "\(runtimeDir)/pipewire-0"]
        if sockets.contains(where: { RegularFile.kind(of: $0) == .socket }) { return nil }
        return "no sound server (PulseAudio/PipeWire) is listening in XDG_RUNTIME_DIR='\(runtimeDir.printable)' "
            + "(neither pulse/native nor pipewire-0 is there); start the sound server, run wake from your desktop session, or ring on a hw: device"
    }
}
