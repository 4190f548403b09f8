import CALSA
import CPulse
import Glibc
import WakeCore

/// wake's own playback stream on a sound server (PulseAudio, or PipeWire through pipewire-pulse),
/// in place of ALSA's pulse plugin where an alarm's PCM is that plugin (`default` while a server
/// runs, `pulse`, `pulse:'SINK'` for `--sink`, a `type pulse` PCM of one's own): the plugin names
/// every stream "ALSA Playback", so the volume control could not tell which alarm plays. This
/// stream is named for it ("Alarm 06:30 (work)", `media.name`) and is otherwise the plugin's:
/// the same sink (the PCM's `device`, or where the server puts wake's streams), channel order,
/// buffer and properties (the context's `PULSE_PROP`: wake, role alarm), so what the server
/// remembers of wake's stream keys and routes it as before.
///
/// Every call runs on the output worker's thread and waits on the server at most `timeout`, or
/// never (writes): a frozen server stalls the ring, which the loop sees as it sees a stalled PCM.
public final class SoundServerPlayback: PlaybackDevice {
    public let device: String
    public let format: PCM.SampleFormat
    public let channels: Int
    public let rate: Int
    public let bufferFrames: Int
    public var isClockless: Bool { false }
    public var isServerBacked: Bool { true }
    public var delayFrames: Int { 0 }
    private let state: UnsafeMutablePointer<wake_pa_playback>

    /// The sink ALSA's PCM `device` plays on when it is the pulse plugin: "" for wherever the
    /// server puts an application's stream, nil when it is another PCM (or another server's).
    public static func pulseSink(ofPCM device: String) -> String? {
        var sink = [CChar](repeating: 0, count: SinkChoice.longest + 1)
        guard wake_snd_pcm_pulse_sink(device, &sink, sink.count) == 1 else { return nil }
        return String(decoding: sink.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Opens wake's stream for `device` when that PCM is the pulse plugin and a server can be
    /// reached; nil otherwise, or when the stream cannot be made (then ALSA's plugin is opened
    /// as before, and its failure, if it fails too, is the one said; so is a fault a test injects
    /// at `pcm.open`, left to that open).
    public static func open(device: String, name: String, format: PCM.SampleFormat, channels: Int, rate: Int,
                            latency: Duration) -> SoundServerPlayback? {
        // The PCM's own definition first: a device that is no pulse plugin (null, hw:, file:) never
        // loads libpulse nor looks for a server, so its open comes as early as before.
        guard let sink = pulseSink(ofPCM: device), SoundServerEnvironment.explainUnreachable(device: device) == nil,
              !FaultInjector.wouldFault("pcm.open", target: device), SoundServerStream.library.loaded else { return nil }
        return try? SoundServerPlayback(device: device, sink: sink, name: name, format: format, channels: channels, rate: rate,
                                        latency: latency)
    }

    init(device: String, sink: String, name: String, format: PCM.SampleFormat, channels: Int, rate: Int,
         latency: Duration) throws(SoundServerStream.Failure) {
        self.device = device
        self.format = format
        self.channels = channels
        self.rate = rate
        let state = UnsafeMutablePointer<wake_pa_playback>.allocate(capacity: 1)
        state.initialize(to: wake_pa_playback())
        self.state = state
        let microseconds = latency.nanoseconds / 1000
        let opened = withUnsafePointer(to: &SoundServerStream.library.functions) { functions in
            wake_pa_playback_open(functions, state, sink.isEmpty ? nil : sink, name, format == .s32 ? 1 : 0, Int32(clamping: channels),
                                  Int32(clamping: rate), microseconds, SoundServerStream.timeout)
        }
        guard opened == 0 else {
            let why = state.pointee.c.f == nil ? "no such channel count" : String(cString: wake_pa_error(&state.pointee.c))
            state.deallocate()
            throw SoundServerStream.Failure(description: "cannot make wake's stream on the sound server: \(why)")
        }
        let frameBytes = max(1, channels * format.bytesPerSample)
        bufferFrames = Int(state.pointee.buffer_bytes) / frameBytes
    }

    deinit {
        wake_pa_playback_close(state)
        state.deallocate()
    }

    public var typeName: String { "pulse" }

    /// The stream's index on the server (what `pactl list sink-inputs` shows as its number).
    public var index: UInt32 { wake_pa_playback_index(state) }

    /// Frames the server took; -EAGAIN when it has no room, -EIO when the stream or the server failed.
    public func play(_ buffer: UnsafeRawPointer, frames: Int) -> Int {
        if let e = FaultInjector.fault("pcm.write", target: device) {
            if e == FaultInjector.hang { while true { pause() } }  // as PCM.write: the worker's thread alone
            return -Int(e)
        }
        let r = wake_pa_playback_write(state, buffer, frames)
        if r < 0 { return -Int(EIO) }
        return r == 0 ? -Int(EAGAIN) : r
    }

    public func writeFailure(_ code: Int) -> String {
        let why = wake_pa_playback_alive(state) != 0 ? String(cString: wake_snd_strerror(Int32(clamping: code)))
            : "the sound server ended wake's stream (\(String(cString: wake_pa_error(&state.pointee.c))))"
        return "playing on '\(device.printable)': \(why)"
    }

    /// The server plays silence through an underrun and goes on when more comes: nothing to recover.
    public func recover(from code: Int) throws(ALSAError) {
        throw ALSAError("pa_stream_write", device: device, code: Int32(clamping: code))
    }

    public func rewindQueued() -> Int { 0 }

    public func waitForRoom(wakingOn fd: Int32?, descriptors: inout [Poll.Descriptor]) -> Bool {
        wake_pa_playback_wait(state, fd ?? -1, fd == nil ? 25 : 1000) == 1
    }

    public func drop() { wake_pa_playback_drop(state, 200) }

    public func close() { wake_pa_playback_close(state) }
}
