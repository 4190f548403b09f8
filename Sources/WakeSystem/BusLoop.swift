import CSystemd
import Glibc
import WakeCore

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

    /// The descriptor to poll, nil once the connection has failed or closed.
    static func openPollDescriptor(_ bus: OpaquePointer) -> pollfd? {
        wake_sd_bus_is_open(bus) > 0 ? pollDescriptor(bus) : nil
    }

    /// Whether messages are still queued for writing.
    static func hasQueuedOutput(_ bus: OpaquePointer) -> Bool {
        guard wake_sd_bus_is_open(bus) > 0 else { return false }
        var queued: UInt64 = 0
        return wake_sd_bus_get_n_queued_write(bus, &queued) >= 0 && queued > 0
    }

    /// At an end, when the loop no longer turns: writes what is queued for at most `limit`,
    /// waiting only for the bus daemon's socket, never for another client.
    static func flush(_ bus: OpaquePointer, within limit: Duration) {
        let deadline = SystemClock.monotonic + limit
        drain(bus)
        while hasQueuedOutput(bus) {
            let left = deadline - SystemClock.monotonic
            guard left > .zero, let p = openPollDescriptor(bus) else { return }
            var fds = [p]
            _ = try? Poll.wait(&fds, timeout: left)  // a failed wait only means trying again until the deadline
            drain(bus)
        }
    }
}
