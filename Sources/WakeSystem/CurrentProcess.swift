import Glibc

/// This process's own facts, for the parts of wake that may not import Glibc (the
/// application's files outside `KernelDoorTests`' list).
public enum CurrentProcess {
    /// The PID: names a second media player's instance (`wake.instance4242`).
    public static var id: Int32 { getpid() }
}
