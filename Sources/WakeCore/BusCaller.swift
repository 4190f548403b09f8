/// A program that sent a command over D-Bus (a media key's MPRIS call, a script's API call):
/// its unique bus name, and the process behind it as the bus daemon and /proc said when the
/// call came. The unique name alone (`:1.39`) means nothing once that program has exited.
public struct BusCaller: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public var uniqueName: String
    public var pid: Int32?
    /// The process's name (`/proc/PID/comm`: `playerctl`, `gsd-media-keys`).
    public var program: String?

    public init(uniqueName: String, pid: Int32? = nil, program: String? = nil) {
        self.uniqueName = uniqueName
        self.pid = pid
        self.program = program
    }

    public init(stringLiteral uniqueName: String) { self.init(uniqueName: uniqueName) }

    /// `playerctl, pid 4242, :1.39`, as much of it as is known (escaped: a program names itself).
    public var description: String {
        var parts: [String] = []
        if let program { parts.append(TerminalText.escape(program)) }
        if let pid { parts.append("pid \(pid)") }
        return (parts + [TerminalText.escape(uniqueName)]).joined(separator: ", ")
    }
}
