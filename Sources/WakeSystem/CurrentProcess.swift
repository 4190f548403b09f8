import Glibc

/// This process's own facts, for the parts of wake that may not import Glibc (the
/// application's files outside `KernelDoorTests`' list).
public enum CurrentProcess {
    /// The PID: names a second media player's instance (`wake.instance4242`).
    public static var id: Int32 { getpid() }

    /// Its whole environment, as `NAME=value` entries: what a child of the same program gets.
    public static var environment: [String] {
        var out: [String] = []
        var entry = environ
        while let e = entry.pointee {
            out.append(String(cString: e))
            entry += 1
        }
        return out
    }

    /// Its own program, even when the file was replaced or removed since it started (an upgrade).
    public static let executable = "/proc/self/exe"

    /// Another process's name as the kernel keeps it (`/proc/PID/comm`, at most 15 bytes), or
    /// nil when it has gone or cannot be read.
    public static func name(of pid: Int32) -> String? {
        guard pid > 0, let bytes = try? RegularFile.readAll("/proc/\(pid)/comm", limit: 64) else { return nil }
        let name = String(decoding: bytes, as: UTF8.self).trimmingSuffix("\n")
        return name.isEmpty ? nil : name
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
