import CSystemd
import Glibc

/// How an sd-bus connection joins wake's poll loop, shared by the system-bus (logind) and
/// session-bus (notifications) connections.
enum BusLoop {
    /// The connection's descriptor and the events to poll it for.
    static func pollDescriptor(_ bus: OpaquePointer) -> pollfd? {
        let fd = wake_sd_bus_get_fd(bus)
        let events = wake_sd_bus_get_events(bus)
        guard fd >= 0, events >= 0 else { return nil }
        return pollfd(fd: fd, events: Int16(events), revents: 0)
    }

    /// Reads, writes and dispatches whatever can move without waiting. Run before every poll
    /// too: sd-bus queues what arrives during a blocking call, and while anything is queued it
    /// asks poll for no events at all, so a queue left alone would never drain.
    static func drain(_ bus: OpaquePointer) {
        while wake_sd_bus_process(bus, nil) > 0 {}
    }
}
