import Glibc
import WakeCore

/// Plays a sound file through ALSA in a loop, gaplessly, driven by the event loop: the runner
/// polls `pollSet` and calls `service` when any of it is ready. Failures that cannot be recovered
/// walk a fallback chain (reopen, `default`, each card's `plughw:N`) down to the terminal bell,
/// saying so at each step; only when even the bell is impossible does it report `.failed`.
public final class Ringer {
    public struct Settings: Sendable {
        public var device: String
        public var volume: Int
        public var fadeIn: Duration
        public var latency: Duration
        public init(device: String = "default", volume: Int = 100, fadeIn: Duration = .zero, latency: Duration = .milliseconds(100)) {
            self.device = device; self.volume = volume; self.fadeIn = fadeIn; self.latency = latency
        }
    }

    public enum Notice {
        case opened(device: String, format: String, paced: Bool)
        case firstFrame
        case recovered(String)
        /// `to` is a device name, or `bell` for the last resort.
        case fallback(from: String, to: String, reason: String)
        /// The bell is ringing (the fallback to it was announced just before).
        case bell
        case failed(reason: String)
        /// The sound stopped: frames written to devices and loop seams passed during this ring.
        case stopped(frames: Int64, seams: Int64)
    }

    enum Output {
        case idle
        case device(PCM, pacing: WakeTimer?)
        case bell(WakeTimer, fd: Int32)
        case failed
    }

    public let sound: SoundFile
    public let settings: Settings
    private let notify: (Notice) -> Void
    private var output: Output = .idle
    private var chain: [String] = []
    /// The device tried last: where a fall to the bell comes from.
    private var lastDevice = ""
    private var fallbacksAdded = false
    private var lastFailure = ""

    // Staging: frames read from the file, gain applied, waiting to be written.
    private let chunkFrames = 16384
    private let frameBytes: Int
    private let staging: UnsafeMutableRawPointer
    private var stagedFrames = 0
    private var stagedOffset = 0
    /// Position in the file of the next frame to reach the device, for rewinding on stop.
    private var nextWritePosition: Int64 = 0
    /// Frames produced since this ring started: drives the fade-in and the pacing schedule.
    private var producedFrames: Int64 = 0
    private var writtenFrames: Int64 = 0
    private var pacingStart = Instant(nanoseconds: 0)
    private var lastProgress = Instant(nanoseconds: 0)
    private var sawFirstFrame = false
    private var watchdog: WakeTimer?
    /// How long a device may accept nothing before it counts as failed.
    public var stallLimit: Duration = .seconds(3)
    /// Test and benchmark switch: write to clockless devices as fast as they take it.
    public var unpaced = false
    /// Loop seams passed and frames written during the current ring, for the event log and tests.
    public private(set) var seams: Int64 = 0
    public private(set) var framesThisRing: Int64 = 0

    public init(sound: SoundFile, settings: Settings, notify: @escaping (Notice) -> Void) {
        self.sound = sound
        self.settings = settings
        self.notify = notify
        frameBytes = sound.channels * (sound.width == .int16 ? 2 : 4)
        staging = UnsafeMutableRawPointer.allocate(byteCount: chunkFrames * frameBytes, alignment: 8)
    }

    deinit {
        stop()
        staging.deallocate()
    }

    var format: PCM.SampleFormat { sound.width == .int16 ? .s16 : .s32 }

    /// Opens the device (so a check can fail early) and closes it again: the arm-time check.
    public static func check(device: String, sound: SoundFile, latency: Duration = .milliseconds(100)) throws(ALSAError) -> PCM {
        let pcm = try PCM(device: device, format: sound.width == .int16 ? .s16 : .s32, channels: sound.channels,
                          rate: sound.sampleRate, latency: latency)
        // A `file:` PCM opens its file only at the first write: write a moment of silence now
        // so a bad path is reported when the alarm is set (the file is rewritten at ring time).
        if pcm.isClockless {
            let frames = max(pcm.bufferFrames, 16)
            let zeros = [UInt8](repeating: 0, count: frames * sound.channels * pcm.format.bytesPerSample)
            var r = 0
            for _ in 0..<4 where r >= 0 { r = zeros.withUnsafeBytes { pcm.write($0.baseAddress!, frames: frames, probe: true) } }
            pcm.drop()
            if r < 0 && r != -Int(EAGAIN) {
                pcm.close()
                throw ALSAError("snd_pcm_writei", device: device, code: Int32(r))
            }
        }
        return pcm
    }

    public var isRinging: Bool { if case .idle = output { return false } else { return true } }

    /// Starts ringing from the beginning of the sound.
    public func start() {
        stop()
        try? sound.rewind()
        (stagedFrames, stagedOffset, nextWritePosition, producedFrames, writtenFrames, sawFirstFrame) = (0, 0, 0, 0, 0, false)
        (seams, framesThisRing) = (0, 0)
        // Only the requested device is on the critical path at 07:00; the fallbacks (which need a
        // walk over every card index) are worked out when it fails.
        chain = [settings.device]
        fallbacksAdded = false
        lastFailure = ""
        watchdog = try? WakeTimer(periodic: .seconds(1))
        lastProgress = SystemClock.monotonic
        advance(from: nil)
    }

    /// Tries the next step of the chain, starting with the requested device.
    private func advance(from failed: String?) {
        if chain.isEmpty && !fallbacksAdded {
            fallbacksAdded = true
            chain = [settings.device]  // reopen once
            if settings.device != "default" { chain.append("default") }
            chain += PCM.cardNumbers().map { "plughw:\($0)" }.filter { $0 != settings.device }
        }
        while !chain.isEmpty {
            let name = chain.removeFirst()
            if let failed { notify(.fallback(from: failed, to: name, reason: lastFailure)) }
            lastDevice = name
            do {
                let pcm = try PCM(device: name, format: format, channels: sound.channels, rate: sound.sampleRate,
                                  latency: settings.latency)
                let paced = pcm.isClockless
                let pacing = paced && !unpaced ? try? WakeTimer(periodic: .milliseconds(20)) : nil
                output = .device(pcm, pacing: pacing)
                notify(.opened(device: name, format: "\(pcm.format), \(pcm.channels) ch, \(pcm.rate) Hz, buffer \(pcm.bufferFrames) frames", paced: paced))
                pacingStart = SystemClock.monotonic
                writtenFrames = 0
                lastProgress = pacingStart
                guard fill() else { return }  // a failed read has already moved on to the bell
                // The first frames go out at once: the alarm's lateness is measured at this write.
                pump(pcm, upTo: pacing != nil ? Int64(sound.sampleRate) / 10 : (paced ? Int64(chunkFrames) : Int64.max))
                return
            } catch {
                lastFailure = error.description
                return advance(from: name)
            }
        }
        startBell(announced: false)
    }

    /// The last resort. `announced`: the fallback to the bell was already reported.
    private func startBell(announced: Bool) {
        let tty = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)
        let fd = tty >= 0 ? tty : (isatty(STDERR_FILENO) == 1 ? dup(STDERR_FILENO) : -1)
        guard fd >= 0, let timer = try? WakeTimer(periodic: .seconds(1)) else {
            if tty >= 0 { close(tty) }
            output = .failed
            notify(.failed(reason: "no sound device works (\(lastFailure)) and there is no terminal to ring the bell on"))
            return
        }
        if !announced { notify(.fallback(from: lastDevice, to: "bell", reason: lastFailure)) }
        output = .bell(timer, fd: fd)
        notify(.bell)
        ringBell(fd)
    }

    private func ringBell(_ fd: Int32) {
        var bel: UInt8 = 7
        _ = Glibc.write(fd, &bel, 1)
    }

    /// Descriptors to poll while ringing.
    public var pollSet: [pollfd] {
        var fds: [pollfd] = []
        switch output {
        case .device(let pcm, let pacing):
            if let pacing { fds.append(pollfd(fd: pacing.fd, events: Int16(POLLIN), revents: 0)) }
            else { fds += pcm.pollDescriptors() }  // a clockless PCM's are always ready: unpaced
        case .bell(let timer, _):
            fds.append(pollfd(fd: timer.fd, events: Int16(POLLIN), revents: 0))
        case .idle, .failed:
            break
        }
        if let watchdog, isRinging { fds.append(pollfd(fd: watchdog.fd, events: Int16(POLLIN), revents: 0)) }
        return fds
    }

    /// After the process was stopped (Ctrl-Z, then fg): the time it stood still is neither a
    /// device stall nor audio owed, so the watchdog and the pacing schedule start afresh.
    public func continueAfterStop() {
        let now = SystemClock.monotonic
        lastProgress = now
        let lead = Int64(sound.sampleRate) / 10
        pacingStart = now - .nanoseconds(max(0, writtenFrames - lead) * 1_000_000_000 / Int64(sound.sampleRate))
    }

    /// Handles readiness of any of `pollSet`.
    public func service(_ ready: [pollfd]) {
        if let watchdog, ready.contains(where: { $0.fd == watchdog.fd && $0.revents != 0 }) {
            _ = watchdog.acknowledge()
            if case .device(let pcm, _) = output, SystemClock.monotonic - lastProgress > stallLimit {
                return fail(pcm, "no audio accepted for \(Formatting.span(stallLimit)) (device stalled)")
            }
        }
        switch output {
        case .device(let pcm, let pacing):
            if let pacing {
                guard ready.contains(where: { $0.fd == pacing.fd && $0.revents != 0 }) else { return }
                _ = pacing.acknowledge()
                let elapsed = SystemClock.monotonic - pacingStart
                let lead = Int64(sound.sampleRate) / 10  // keep 100 ms queued, as real hardware would
                let due = elapsed.nanoseconds / 1000 * Int64(sound.sampleRate) / 1_000_000 + lead
                pump(pcm, upTo: due)
            } else {
                if pcm.isClockless {  // unpaced: always writable, a few chunks a round
                    return pump(pcm, upTo: writtenFrames + Int64(chunkFrames) * 4)
                }
                let own = Set(pcm.pollDescriptors().map(\.fd))
                let mine = ready.filter { own.contains($0.fd) }
                guard (Int32(pcm.revents(mine)) & Int32(POLLOUT | POLLERR)) != 0 else { return }
                pump(pcm, upTo: Int64.max)
            }
        case .bell(let timer, let fd):
            if ready.contains(where: { $0.fd == timer.fd && $0.revents != 0 }) {
                _ = timer.acknowledge()
                ringBell(fd)
            }
        case .idle, .failed:
            break
        }
    }

    /// Writes until the device is full or `upTo` frames have been written in total.
    private func pump(_ pcm: PCM, upTo target: Int64) {
        var attempts = 0
        while writtenFrames < target {
            attempts += 1
            if attempts > 64 { return }  // yield to the loop now and then
            if stagedOffset >= stagedFrames {
                guard fill() else { return }
            }
            let want = min(stagedFrames - stagedOffset, Int(min(Int64(Int.max), target - writtenFrames)))
            let r = pcm.write(staging + stagedOffset * frameBytes, frames: want)
            if r > 0 {
                stagedOffset += r
                writtenFrames += Int64(r)
                framesThisRing += Int64(r)
                nextWritePosition = (nextWritePosition + Int64(r)) % sound.frames
                lastProgress = SystemClock.monotonic
                if !sawFirstFrame { sawFirstFrame = true; notify(.firstFrame) }
                continue
            }
            if r == -Int(EAGAIN) || r == 0 { return }
            if r == -Int(EPIPE) || r == -Int(ESTRPIPE) {
                do {
                    try pcm.recover(from: r)
                    notify(.recovered(r == -Int(EPIPE) ? "underrun" : "resumed after suspend"))
                    continue
                } catch {
                    return fail(pcm, error.description)
                }
            }
            return fail(pcm, ALSAError("snd_pcm_writei", device: pcm.device, code: Int32(r)).description)
        }
    }

    private func fail(_ pcm: PCM, _ reason: String) {
        pcm.drop()
        pcm.close()
        lastFailure = reason
        output = .idle
        // The frames lost with the device are not replayed: the next device starts where the file is.
        stagedOffset = stagedFrames
        advance(from: pcm.device)
    }

    /// Reads the next chunk of the file into staging, looping at the end, and applies the gain.
    @discardableResult
    private func fill() -> Bool {
        stagedFrames = 0
        stagedOffset = 0
        var emptyReads = 0
        while stagedFrames < chunkFrames {
            let n: Int
            do {
                n = try readFile(at: stagedFrames, frames: chunkFrames - stagedFrames)
            } catch {
                return decodeFailed(error.description)
            }
            if n == 0 {
                // The seam: the end of the file joins its start with nothing between.
                emptyReads += 1
                if emptyReads > 1 { return decodeFailed("the sound file yields no frames") }
                do { try sound.rewind() } catch { return decodeFailed(error.description) }
                seams += 1
                continue
            }
            emptyReads = 0
            applyGain(from: stagedFrames, count: n)
            stagedFrames += n
        }
        return true
    }

    /// A file that fails to decode mid-ring still has to wake someone: fall back to the bell.
    private func decodeFailed(_ reason: String) -> Bool {
        if case .device(let pcm, _) = output { pcm.drop(); pcm.close() }
        output = .idle
        chain = []
        fallbacksAdded = true
        lastFailure = "decoding '\(sound.path)' failed: \(reason)"
        notify(.fallback(from: lastDevice, to: "bell", reason: lastFailure))
        startBell(announced: true)
        return false
    }

    private func applyGain(from start: Int, count: Int) {
        let volume = Double(settings.volume) / 100
        let fadeFrames = settings.fadeIn.nanoseconds / 1000 * Int64(sound.sampleRate) / 1_000_000
        defer { producedFrames += Int64(count) }
        if volume >= 1 && producedFrames >= fadeFrames { return }  // bit-exact pass-through
        let first = producedFrames
        scale(from: start, count: count) { f in
            let i = first + Int64(f)
            return volume * (fadeFrames > 0 && i < fadeFrames ? Double(i) / Double(fadeFrames) : 1)
        }
    }

    /// Multiplies staged frames by a per-frame gain, rounding to the nearest sample value.
    private func scale(from start: Int, count: Int, gain: (Int) -> Double) {
        func apply<T: FixedWidthInteger>(_ type: T.Type) {
            let p = staging.assumingMemoryBound(to: T.self)
            let ch = sound.channels
            for f in 0..<count {
                let g = gain(f)
                for c in (start + f) * ch..<(start + f + 1) * ch {
                    p[c] = T(clamping: Int64((Double(p[c]) * g).rounded()))
                }
            }
        }
        switch sound.width {
        case .int16: apply(Int16.self)
        case .int32: apply(Int32.self)
        }
    }

    /// Reads up to `frames` frames from the file into staging at frame offset `at`.
    private func readFile(at offset: Int, frames: Int) throws(SoundFile.ReadError) -> Int {
        let dest = staging + offset * frameBytes
        switch sound.width {
        case .int16: return try sound.read(into: dest.assumingMemoryBound(to: Int16.self), frames: frames)
        case .int32: return try sound.read(into: dest.assumingMemoryBound(to: Int32.self), frames: frames)
        }
    }

    /// Silences the device within a few milliseconds: takes back what is queued, plays a short
    /// fade-out of the same audio so there is no click, then drops.
    public func stop() {
        defer { output = .idle; watchdog = nil }
        if isRinging { notify(.stopped(frames: framesThisRing, seams: seams)) }
        switch output {
        case .device(let pcm, _):
            // The fade continues from the last frame the device has not yet played: on hardware,
            // after taking back what is queued; on a clockless device, right after the last write.
            let rewound = pcm.isClockless ? 0 : pcm.rewindQueued()
            let from = ((nextWritePosition - Int64(rewound)) % sound.frames + sound.frames) % sound.frames
            if (try? sound.seek(to: from)) != nil { fadeOut(pcm) }
            pcm.drop()
            pcm.close()
        case .bell(_, let fd):
            close(fd)
        case .idle, .failed:
            break
        }
    }

    private func fadeOut(_ pcm: PCM) {
        let fadeFrames = min(chunkFrames, sound.sampleRate / 100)  // 10 ms
        stagedFrames = 0
        stagedOffset = 0
        var got = 0, emptyReads = 0
        while got < fadeFrames && emptyReads < 2 {
            let n = (try? readFile(at: got, frames: fadeFrames - got)) ?? 0
            if n == 0 { emptyReads += 1; try? sound.rewind(); continue }
            emptyReads = 0
            got += n
        }
        let volume = Double(settings.volume) / 100
        scale(from: 0, count: got) { f in Double(got - f) / Double(got) * volume }
        _ = pcm.write(staging, frames: got)
        if !pcm.isClockless {
            // Let what is queued (what could not be taken back, then the fade) play out before the
            // drop, but never for more than 20 ms: the stop must be heard at once.
            let queued = Int64(max(0, pcm.delayFrames)) * 1_000_000_000 / Int64(sound.sampleRate)
            let wait = min(queued, 20_000_000)
            var ts = timespec(tv_sec: 0, tv_nsec: Int(wait))
            nanosleep(&ts, nil)
        }
    }
}
