import CPulse
import Glibc
import Synchronization
import WakeCore

/// Watches wake's own stream on a sound server while it plays, for `wake test`'s report: every
/// `every` it asks the server (through libpulse, one connection kept for the watch, each call
/// bounded by `SoundServerStream.timeout`) for this process's newest sink-input, whether the
/// server has it muted or corked (paused) and at what level, and the same of the sink it plays
/// on. What the output worker's stream guard did at the start (unmuted and raised the stream) is
/// the ring's own; this sees what the server does after that, which the guard does not undo
/// (a volume control muting the stream, a policy corking it for a call).
///
/// The asking runs on a thread of its own, never on the event loop nor the output worker, so a
/// slow or hung server delays only the watch. `stop()` does not wait for the thread: a call
/// under way ends within its bound, and the thread with it.
public final class SoundServerWatch: Sendable {
    /// What the server said of wake's stream and its sink.
    public struct StreamState: Sendable, Equatable {
        public var muted: Bool
        /// Paused rather than playing: by the server's policy, or by the client.
        public var corked: Bool
        /// The stream's loudest channel, in percent; nil when it has no volume.
        public var percent: Int?
        public var sink: SoundServerStream.Sink
        public var sinkMuted: Bool
        public var sinkPercent: Int?

        public init(muted: Bool, corked: Bool, percent: Int?, sink: SoundServerStream.Sink, sinkMuted: Bool, sinkPercent: Int?) {
            self.muted = muted; self.corked = corked; self.percent = percent
            self.sink = sink; self.sinkMuted = sinkMuted; self.sinkPercent = sinkPercent
        }

        /// Heard as far as the server goes: playing, unmuted and above 0 % on a sink that is too.
        public var isAudible: Bool {
            !muted && !corked && (percent ?? 100) > 0 && !sinkMuted && (sinkPercent ?? 100) > 0
        }
    }

    /// One look: when the answer came (monotonic), and the stream, nil when the server lists
    /// none of this process's.
    public struct Sample: Sendable, Equatable {
        public var at: Instant
        public var stream: StreamState?

        public init(at: Instant, stream: StreamState?) {
            self.at = at
            self.stream = stream
        }
    }

    public let interval: Duration
    private let pid: Int32
    /// What the watch's thread found, read by the loop.
    private struct Found {
        var taken: [Sample] = []
        var problem: String?
        var stopped = false
    }
    private let found = Mutex(Found())

    private init(interval: Duration, pid: Int32) {
        self.interval = interval
        self.pid = pid
    }

    /// Starts watching this process's stream (`pid`: another's, for the tests); throws when no
    /// thread can be made.
    public static func start(every interval: Duration, pid: Int32 = getpid()) throws(SystemCallError) -> SoundServerWatch {
        let watch = SoundServerWatch(interval: interval, pid: pid)
        try DetachedThread.start { watch.run() }
        return watch
    }

    /// Ends the watch; the samples taken so far stay readable.
    public func stop() { found.withLock { $0.stopped = true } }

    public var samples: [Sample] { found.withLock { $0.taken } }

    /// Why the server could not be asked, the last time it could not (nil while it answers).
    public var failure: String? { found.withLock { $0.problem } }

    private var isStopped: Bool { found.withLock { $0.stopped } }

    private func run() {
        let library = SoundServerStream.library
        guard library.loaded else { return found.withLock { $0.problem = "libpulse (libpulse0) cannot be loaded" } }
        var c = wake_pa_connection()
        var connected = false
        defer { if connected { wake_pa_disconnect(&c) } }
        while !isStopped {
            if !connected {
                connected = withUnsafePointer(to: &library.functions) { wake_pa_connect($0, &c, SoundServerStream.timeout) == 0 }
                if !connected {
                    let why = String(cString: wake_pa_error(&c))
                    wake_pa_disconnect(&c)
                    found.withLock { $0.problem = "cannot reach the sound server: \(why)" }
                    SystemClock.sleep(for: interval)
                    continue
                }
            }
            wake_pa_renew(&c, SoundServerStream.timeout)
            var stream = wake_pa_object()
            guard wake_pa_find_stream(&c, pid, &stream) == 0 else {
                let why = String(cString: wake_pa_error(&c))
                wake_pa_disconnect(&c)
                connected = false
                found.withLock { $0.problem = "the sound server stopped answering: \(why)" }
                SystemClock.sleep(for: interval)
                continue
            }
            var state: StreamState?
            if stream.found != 0 {
                var sink = wake_pa_object()
                let sinkRead = wake_pa_find_sink(&c, stream.sink, nil, &sink) == 0 && sink.found != 0
                let level = SoundServerStream.reading("stream", stream)
                let sinkLevel = SoundServerStream.reading("sink", sink)
                state = StreamState(muted: stream.mute != 0, corked: stream.corked != 0, percent: level.percent,
                                    sink: sinkRead ? SoundServerStream.sink(sink) : SoundServerStream.Sink(name: "#\(stream.sink)", description: ""),
                                    sinkMuted: sinkRead && sink.mute != 0, sinkPercent: sinkRead ? sinkLevel.percent : nil)
            }
            let sample = Sample(at: SystemClock.monotonic, stream: state)
            found.withLock {
                $0.taken.append(sample)
                $0.problem = nil
            }
            SystemClock.sleep(for: interval)
        }
    }
}
