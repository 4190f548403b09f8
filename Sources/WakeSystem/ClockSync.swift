import CLinux

/// Whether the kernel's clock is kept synchronised (by NTP, chrony, systemd-timesyncd): the
/// kernel clears STA_UNSYNC while a synchronisation daemon disciplines it. Asked read-only,
/// which needs no privilege: the answer where timedated gives none (a container, a machine
/// without systemd).
public enum ClockSync {
    public static func kernelSynchronised() -> Bool? {
        switch wake_clock_synchronised() {
        case 1: return true
        case 0: return false
        default: return nil
        }
    }
}
