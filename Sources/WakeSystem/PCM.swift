import CALSA
import Glibc
import WakeCore

/// An ALSA error: the call, the device, and alsa-lib's own words for the code.
public struct ALSAError: Error, CustomStringConvertible, Equatable {
    public var call: String
    public var device: String
    public var code: Int32
    /// The cause in words when it is known better than the code says ("the directory '/x' does
    /// not exist", "ALSA's configuration could not be loaded (...)"); replaces `message`.
    public var detail: String?
    public init(_ call: String, device: String, code: Int32, detail: String? = nil) {
        self.call = call; self.device = device; self.code = code; self.detail = detail
    }
    public var message: String {
        if let detail { return detail }
        // snd_pcm_open's -ENOENT is a name ALSA does not know, not a missing file.
        if code == -ENOENT && call == "snd_pcm_open" { return "no such ALSA device" }
        return String(cString: wake_snd_strerror(code))
    }

    /// The error for a failed call, blaming ALSA's configuration when that is what failed: a
    /// broken configuration makes every call fail with a bare "Invalid argument".
    static func explained(_ call: String, device: String, code: Int32) -> ALSAError {
        // libasound itself did not load: `message` says so and what to install; nothing else to blame.
        if code == Self.libraryUnavailable { return ALSAError(call, device: device, code: code) }
        if code == -EMFILE || code == -ENFILE || DescriptorLimit.exhausted {
            return ALSAError(call, device: device, code: code, detail: DescriptorLimit.exhaustedMessage)
        }
        return ALSAError(call, device: device, code: code, detail: ALSAEnvironment.configurationProblem())
    }
    public var description: String { "\(call) on '\(device.printable)': \(message)" }

    /// What every wrapper in CALSA's shim returns while libasound.so.2 cannot be loaded (the
    /// shim's own constant, so the two cannot drift apart).
    static let libraryUnavailable = Int32(WAKE_SND_UNAVAILABLE)
    /// The call failed because libasound.so.2 cannot be loaded (then `message` names it and the
    /// package to reinstall, and no device or configuration is to blame).
    public var libraryMissing: Bool { code == Self.libraryUnavailable && wake_snd_ready() == 0 }
}

/// One ALSA playback PCM, opened non-blocking so its descriptors join the event loop.
public final class PCM: PlaybackDevice {
    public enum SampleFormat: Sendable, CustomStringConvertible {
        case s16, s32
        var alsa: snd_pcm_format_t { self == .s16 ? SND_PCM_FORMAT_S16 : SND_PCM_FORMAT_S32 }
        public var bytesPerSample: Int { self == .s16 ? 2 : 4 }
        public var description: String { self == .s16 ? "S16_LE" : "S32_LE" }
    }

    public let device: String
    public let format: SampleFormat
    public let channels: Int
    public let rate: Int
    public private(set) var bufferFrames: Int = 0
    public private(set) var periodFrames: Int = 0
    private var handle: OpaquePointer?

    /// Opens and configures the device; the buffer is sized for `latency`, or for `serverLatency`
    /// when a sound server stands behind the device (an I/O plugin: pulse, pipewire).
    public init(device: String, format: SampleFormat, channels: Int, rate: Int,
                latency: Duration = .milliseconds(100), serverLatency: Duration? = nil) throws(ALSAError) {
        self.device = device
        self.format = format
        self.channels = channels
        self.rate = rate
        if let e = FaultInjector.fault("pcm.open", target: device) { throw ALSAError("snd_pcm_open", device: device, code: -e) }
        var h: OpaquePointer?
        var r = wake_snd_pcm_open(&h, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard r >= 0, let h else { throw ALSAError.explained("snd_pcm_open", device: device, code: r) }
        handle = h
        let type = wake_snd_pcm_type(h)
        isServerBacked = type == SND_PCM_TYPE_IOPLUG
        isClockless = type == SND_PCM_TYPE_NULL || type == SND_PCM_TYPE_FILE
        let wanted = isServerBacked ? serverLatency ?? latency : latency
        r = wake_snd_pcm_set_params(h, format.alsa, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(channels), UInt32(rate),
                               1, UInt32(wanted.nanoseconds / 1000))
        guard r >= 0 else {
            wake_snd_pcm_close(h)
            handle = nil
            throw ALSAError("snd_pcm_set_params(\(format), \(channels) ch, \(rate) Hz)", device: device, code: r)
        }
        var buffer: snd_pcm_uframes_t = 0, period: snd_pcm_uframes_t = 0
        wake_snd_pcm_get_params(h, &buffer, &period)
        bufferFrames = Int(buffer)
        periodFrames = max(1, Int(period))
    }

    deinit { close() }

    /// Opens `device` and closes it again without configuring it, and says whether it is
    /// clockless. For a `file:` PCM this touches no file: alsa-lib creates (and truncates) the
    /// output file only when the hardware parameters are set.
    static func openUnconfigured(device: String) throws(ALSAError) -> (typeName: String, isClockless: Bool) {
        if let e = FaultInjector.fault("pcm.open", target: device) { throw ALSAError("snd_pcm_open", device: device, code: -e) }
        var h: OpaquePointer?
        let r = wake_snd_pcm_open(&h, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard r >= 0, let h else { throw ALSAError.explained("snd_pcm_open", device: device, code: r) }
        defer { wake_snd_pcm_close(h) }
        let type = wake_snd_pcm_type(h)
        let name = wake_snd_pcm_type_name(type).map { String(cString: $0) } ?? "?"
        return (name, type == SND_PCM_TYPE_NULL || type == SND_PCM_TYPE_FILE)
    }

    public func close() {
        if let h = handle { wake_snd_pcm_close(h) }
        handle = nil
    }

    /// `null` and `file` PCMs take audio as fast as it is written: the caller paces them.
    public private(set) var isClockless = false

    /// An I/O plugin, a sound server's client (pulse, pipewire): the server keeps its own buffer,
    /// and a drop corks and flushes the server's stream, so what is queued is never heard.
    public private(set) var isServerBacked = false

    public var typeName: String {
        guard let h = handle, let n = wake_snd_pcm_type_name(wake_snd_pcm_type(h)) else { return "?" }
        return String(cString: n)
    }

    /// Puts the PCM's poll descriptors at the start of `fds`, growing it only when it is too short,
    /// and returns how many there are. The ring's worker waits on the same buffer every time: a
    /// new array per wait was most of its own CPU between writes (issue 28).
    public func fillPollDescriptors(_ fds: inout [pollfd]) -> Int {
        guard let h = handle else { return 0 }
        let n = Int(wake_snd_pcm_poll_descriptors_count(h))
        guard n > 0 else { return 0 }
        if fds.count < n { fds.append(contentsOf: repeatElement(pollfd(), count: n - fds.count)) }
        let got = fds.withUnsafeMutableBufferPointer { wake_snd_pcm_poll_descriptors(h, $0.baseAddress, UInt32(n)) }
        return max(0, Int(got))
    }

    /// Translates raw poll results into what the PCM means by them (POLLOUT: room to write):
    /// the first `count` of `fds` are the PCM's own (as `fillPollDescriptors` put them).
    public func revents(_ fds: inout [pollfd], count: Int) -> UInt16 {
        let n = min(count, fds.count)
        guard let h = handle, n > 0 else { return 0 }
        var out: UInt16 = 0
        fds.withUnsafeMutableBufferPointer { _ = wake_snd_pcm_poll_descriptors_revents(h, $0.baseAddress, UInt32(n), &out) }
        return out
    }

    /// Frames written, or a negative errno (-EAGAIN when the buffer is full).
    /// `probe` writes (the arm-time check) bypass the fault injector, whose counts start at ring time.
    public func write(_ buffer: UnsafeRawPointer, frames: Int, probe: Bool = false) -> Int {
        guard let h = handle else { return -Int(EBADFD) }
        if !probe, let e = FaultInjector.fault("pcm.write", target: device) {
            // HANG: a write that never returns, as a plugin behind a frozen sound server does.
            // Output workers run on their own threads with every signal blocked, so this blocks
            // the worker for good and nothing else.
            if e == FaultInjector.hang { while true { pause() } }
            return -Int(e)
        }
        return Int(wake_snd_pcm_writei(h, buffer, snd_pcm_uframes_t(frames)))
    }

    public func play(_ buffer: UnsafeRawPointer, frames: Int) -> Int { write(buffer, frames: frames) }

    public func writeFailure(_ code: Int) -> String {
        ALSAError("snd_pcm_writei", device: device, code: Int32(clamping: code)).description
    }

    /// Polls the PCM's descriptors for room and `fd`, so a stop wakes the worker at once; at the
    /// latest after a second (without `fd`: 25 ms), in case a plugin's descriptors never say there is room.
    public func waitForRoom(wakingOn fd: Int32?, descriptors: inout [Poll.Descriptor]) -> Bool {
        let n = fillPollDescriptors(&descriptors)
        if n == 0 || isClockless {  // a clockless PCM's descriptors are always ready
            SystemClock.sleep(for: .milliseconds(5))
            return false
        }
        var count = n
        if let fd {
            let request = Poll.Descriptor(fd: fd, events: Poll.readable, revents: 0)
            if descriptors.count > n { descriptors[n] = request } else { descriptors.append(request) }
            count += 1
        }
        // The device's descriptors say when there is room, and the eventfd brings a stop, a go,
        // a resync or an abandonment at once, so the timeout is only a net, as aplay's blocking
        // write has none: at a period (125 ms on a server's plugin) it fired between the plugin's
        // signals, half again as many wake-ups as aplay's and a third of the worker's CPU (issue 28).
        let ready: Int
        do {
            ready = try Poll.wait(&descriptors, count: count, timeout: fd != nil ? .seconds(1) : .milliseconds(25))
        } catch {
            // A poll that fails on the device's and the mailbox's own descriptors would fail
            // again at once: a pause as for a device without descriptors, not a spin.
            SystemClock.sleep(for: .milliseconds(5))
            return false
        }
        guard ready > 0 else { return false }
        if fd != nil, descriptors[n].revents != 0 { return true }
        if (Int16(bitPattern: revents(&descriptors, count: n)) & (Poll.writable | Poll.error)) == 0 {
            // Ready descriptors without room (some plugins): do not spin.
            SystemClock.sleep(for: .milliseconds(5))
        }
        return false
    }

    /// Recovers from an underrun (-EPIPE) or a suspend (-ESTRPIPE); throws for anything else.
    public func recover(from code: Int) throws(ALSAError) {
        guard let h = handle else { throw ALSAError("snd_pcm_recover", device: device, code: -EBADFD) }
        let r = wake_snd_pcm_recover(h, Int32(code), 1)
        if r < 0 { throw ALSAError("snd_pcm_recover", device: device, code: r) }
    }

    /// Takes back queued frames not yet played, so a stop is heard at once.
    public func rewindQueued() -> Int {
        guard let h = handle else { return 0 }
        let n = wake_snd_pcm_rewindable(h)
        guard n > 0 else { return 0 }
        return max(0, Int(wake_snd_pcm_rewind(h, snd_pcm_uframes_t(n))))
    }

    /// Stops at once, discarding what is queued. Never `snd_pcm_drain`: it can hang on some plugins.
    public func drop() {
        if let h = handle { wake_snd_pcm_drop(h) }
    }

    public var delayFrames: Int {
        guard let h = handle else { return 0 }
        var d: snd_pcm_sframes_t = 0
        return wake_snd_pcm_delay(h, &d) == 0 ? Int(d) : 0
    }

    /// A device's name and description, as `aplay -L` lists them.
    public struct DeviceHint: Sendable {
        public var name: String
        public var description: String
    }

    /// The PCMs, as `listDevices`, but empty only when there are none: a configuration ALSA
    /// cannot load throws (with the reason) instead of listing nothing.
    public static func deviceHints() throws(ALSAError) -> [DeviceHint] {
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        let r = wake_snd_device_name_hint(-1, "pcm", &hints)
        guard r == 0, let hints else { throw ALSAError.explained("snd_device_name_hint", device: "pcm", code: r < 0 ? r : -EINVAL) }
        defer { wake_snd_device_name_free_hint(hints) }
        var out: [DeviceHint] = []
        var p = hints
        while let hint = p.pointee {
            func get(_ key: String) -> String? {
                guard let c = wake_snd_device_name_get_hint(hint, key) else { return nil }
                defer { free(c) }
                return String(cString: c)
            }
            let io = get("IOID")
            if let name = get("NAME"), io == nil || io == "Output" {
                let desc = (get("DESC") ?? "").split(separator: "\n").joined(separator: ", ")
                out.append(DeviceHint(name: name, description: desc))
            }
            p += 1
        }
        return out
    }

    /// The sound cards' numbers, for the `plughw:N` steps of the fallback chain.
    public static func cardNumbers() -> [Int] {
        var card: Int32 = -1
        var out: [Int] = []
        while wake_snd_card_next(&card) == 0 && card >= 0 { out.append(Int(card)) }
        return out
    }

    public static var libraryVersion: String { String(cString: wake_snd_asoundlib_version()) }
}
