import CPulse
import Glibc
import Synchronization
import WakeCore

/// The sound server's sinks, for `--sink`: listed at arm time (the check and `--list-devices`),
/// and followed while a ring plays on the chosen one. Each call is bounded by
/// `SoundServerStream.timeout`; none runs on the event loop.
extension SoundServerStream {
    /// Every sink the server lists, with its description and `device.bus`.
    public static func sinks() throws(Failure) -> [SinkChoice.Listed] {
        try connected { (c) throws(Failure) -> [SinkChoice.Listed] in
            let list = UnsafeMutablePointer<wake_pa_sink_list>.allocate(capacity: 1)
            defer { list.deallocate() }
            guard wake_pa_list_sinks(&c, list) == 0 else {
                throw Failure(description: "cannot list the sound server's sinks (\(String(cString: wake_pa_error(&c))))")
            }
            return (0..<Int(list.pointee.count)).map { i in
                let e = wake_pa_sink_at(list, Int32(i)).pointee
                return SinkChoice.Listed(name: text(e.name), description: text(e.description), bus: text(e.bus))
            }
        }
    }
}

extension SoundServerStream {
    /// `--sink all`: the combined sink of every sink (`SinkChoice.combinedName`), loaded now, or
    /// the one already there (left by a wake killed while ringing, or another's ring, taken
    /// over); its module's index, to unload after the ring.
    public static func combineAllSinks() throws(Failure) -> UInt32 {
        try connected { (c) throws(Failure) -> UInt32 in
            var there = wake_pa_object()
            if wake_pa_find_sink(&c, 0, SinkChoice.combinedName, &there) == 0, there.found != 0, there.owner_module != UInt32.max {
                return there.owner_module
            }
            // Named, not left to the module: PulseAudio's own choice takes only hardware sinks.
            let list = UnsafeMutablePointer<wake_pa_sink_list>.allocate(capacity: 1)
            defer { list.deallocate() }
            guard wake_pa_list_sinks(&c, list) == 0 else {
                throw Failure(description: "cannot list the sound server's sinks (\(String(cString: wake_pa_error(&c))))")
            }
            let names = (0..<Int(list.pointee.count)).map { text(wake_pa_sink_at(list, Int32($0)).pointee.name) }
            let slaves = SinkChoice.combined(names)
            guard !slaves.isEmpty else {
                throw Failure(description: "the sound server has no sink to combine; ringing on the default sink")
            }
            var index: UInt32 = 0
            let args = "sink_name=\(SinkChoice.combinedName) slaves=\(slaves.joined(separator: ",")) "
                + "sink_properties='device.description=\"\(SinkChoice.combinedDescription)\"'"
            guard wake_pa_load_module(&c, "module-combine-sink", args, &index) == 0 else {
                let why = String(cString: wake_pa_error(&c))
                throw Failure(description: "the sound server cannot combine its sinks (module-combine-sink: \(why)); "
                    + "ringing on the default sink")
            }
            return index
        }
    }

    /// Unloads the module `index` (the combined sink), as far as the server can be asked.
    public static func unloadModule(_ index: UInt32) {
        _ = try? connected { (c) throws(Failure) in wake_pa_unload_module(&c, index) }
    }
}

/// While a ring plays on the sink the alarm chose (`--sink`), looks every `interval` at which
/// sink wake's stream is on, on a thread of its own (one connection, each call bounded), and
/// reports each change: the server moved the stream elsewhere (the sink went away: PulseAudio
/// and PipeWire move a stream whose sink is removed to one that exists, and PipeWire links a
/// stream whose sink is missing to the default), or it is back on the chosen sink. The sound
/// goes on through the change. When the chosen sink comes back after it was gone, `returned`
/// is called once (the output worker then opens a new stream on it: a move by a client would be
/// remembered by the server for every later alarm that chose no sink); a move to another sink
/// while the chosen one is there (the volume control's) is the user's, and left alone.
public final class SinkFollower: Sendable {
    /// The stream is on `now` rather than on the chosen sink (`now.name` the chosen's: back on
    /// it); `chosenGone`: the chosen sink is no longer listed.
    public struct Change: Sendable, Equatable {
        public var now: SinkChoice.Listed
        public var chosenGone: Bool
    }

    private let chosen: String
    private let interval: Duration
    private let pid: Int32
    private let report: @Sendable (Change) -> Void
    private let returned: @Sendable () -> Void
    private let stopped = Mutex(false)

    private init(chosen: String, interval: Duration, pid: Int32, report: @escaping @Sendable (Change) -> Void,
                 returned: @escaping @Sendable () -> Void) {
        self.chosen = chosen
        self.interval = interval
        self.pid = pid
        self.report = report
        self.returned = returned
    }

    /// Starts following this process's stream (`pid`: another's, for the tests).
    public static func start(chosen: String, every interval: Duration = .milliseconds(500), pid: Int32 = getpid(),
                             report: @escaping @Sendable (Change) -> Void,
                             returned: @escaping @Sendable () -> Void = {}) throws(SystemCallError) -> SinkFollower {
        let follower = SinkFollower(chosen: chosen, interval: interval, pid: pid, report: report, returned: returned)
        try DetachedThread.start { follower.run() }
        return follower
    }

    /// Ends the following; a look under way ends within its bound, and reports nothing.
    public func stop() { stopped.withLock { $0 = true } }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func run() {
        let library = SoundServerStream.library
        guard library.loaded else { return }
        var c = wake_pa_connection()
        var connected = false
        defer { if connected { wake_pa_disconnect(&c) } }
        // The sink last said, or the chosen one until a move is seen; whether the chosen one was
        // seen gone since the stream was last on it.
        var last = chosen
        var chosenWasGone = false
        while !isStopped {
            SystemClock.sleep(for: interval)
            if isStopped { return }
            if !connected {
                connected = withUnsafePointer(to: &library.functions) { wake_pa_connect($0, &c, SoundServerStream.timeout) == 0 }
                if !connected { wake_pa_disconnect(&c); continue }
            }
            wake_pa_renew(&c, SoundServerStream.timeout)
            var stream = wake_pa_object()
            guard wake_pa_find_stream(&c, pid, &stream) == 0 else {
                wake_pa_disconnect(&c)
                connected = false
                continue
            }
            guard stream.found != 0 else { continue }
            var sink = wake_pa_object()
            guard wake_pa_find_sink(&c, stream.sink, nil, &sink) == 0, sink.found != 0 else { continue }
            let now = SinkChoice.Listed(name: SoundServerStream.text(sink.name), description: SoundServerStream.text(sink.description),
                                        bus: SoundServerStream.text(sink.bus))
            var gone = false
            if now.name == chosen {
                chosenWasGone = false
            } else {
                var wanted = wake_pa_object()
                guard wake_pa_find_sink(&c, 0, chosen, &wanted) == 0 else { continue }
                gone = wanted.found == 0
                if gone { chosenWasGone = true }
            }
            if isStopped { return }
            if now.name != last {
                last = now.name
                report(Change(now: now, chosenGone: gone))
            }
            if chosenWasGone && !gone && now.name != chosen {
                chosenWasGone = false
                returned()
            }
        }
    }
}
