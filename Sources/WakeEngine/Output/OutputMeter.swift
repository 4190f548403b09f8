import WakeCore

/// What a ring's outputs took, from wake's own counters: for each device attempt of the ring
/// (the first device, each fallback, a device back from the bell), the frames its PCM accepted,
/// the loudest sample written (after the gain), whether it is a sound server's client, and when
/// it began and was asked to stop. The worker counts as it writes (a pass over what each write
/// took, beside the gain's own); the loop reads the counts through the mailbox, under its lock,
/// and never waits for them. `wake test` reports it.
public struct OutputMeter: Sendable {
    public struct Attempt: Sendable {
        /// The device as the fallback chain named it (`default`, `plughw:0`).
        public var device: String
        /// The user's sound or wake's built-in one.
        public var sound: FallbackChain.Sound
        /// Frames the PCM accepted (a server's plugin: handed to the server's stream).
        public var frames: Int64
        public var rate: Int
        /// The loudest sample written, 0...1 of full scale.
        public var peak: Double
        /// The PCM is an I/O plugin of a sound server (`PCM.isServerBacked`).
        public var serverBacked: Bool
        /// When the first frame was accepted and when the loop asked the worker to stop (or gave
        /// up on it), on the monotonic clock.
        public var firstFrame: Instant?
        public var stopRequested: Instant?

        public init(device: String, sound: FallbackChain.Sound, frames: Int64, rate: Int, peak: Double, serverBacked: Bool,
                    firstFrame: Instant? = nil, stopRequested: Instant? = nil) {
            self.device = device; self.sound = sound; self.frames = frames; self.rate = rate; self.peak = peak
            self.serverBacked = serverBacked; self.firstFrame = firstFrame; self.stopRequested = stopRequested
        }

        /// Seconds of audio accepted.
        public var seconds: Double { rate > 0 ? Double(frames) / Double(rate) : 0 }
    }

    /// In the order the ring tried them.
    public var attempts: [Attempt]

    public init(attempts: [Attempt] = []) { self.attempts = attempts }

    public var frames: Int64 { attempts.reduce(0) { $0 + $1.frames } }
    public var seconds: Double { attempts.reduce(0) { $0 + $1.seconds } }
    public var peak: Double { attempts.map(\.peak).max() ?? 0 }
}
