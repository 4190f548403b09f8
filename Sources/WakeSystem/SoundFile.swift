import CSndFile
import CLinux
import Glibc
import SystemPackage
import WakeCore

/// A sound file opened with libsndfile, validated by decoding it once end to end, and held
/// open for the whole alarm: deleting or replacing the file during the night changes nothing.
/// Or samples held in memory for the life of the process (wake's built-in sound), played
/// without libsndfile.
public final class SoundFile {
    public struct OpenError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        /// libsndfile.so.1 itself cannot be loaded: no file is to blame (`reason` says what to install).
        public var libraryMissing = false
        /// The decoding was given up for this signal, pending when `interrupted` was asked.
        public var signal: Int32? = nil
        public var description: String { localized("cannot use sound file '{file}': {reason}", path.printable, reason) }
    }

    /// The sample type the file is decoded to, chosen so 16-bit sources pass through bit-exact.
    public enum SampleWidth: Sendable { case int16, int32 }

    public let path: String
    public let sampleRate: Int
    public let channels: Int
    public let frames: Int64
    public let formatName: String
    public let width: SampleWidth
    /// The measured level: the largest |sample - channel mean| over the whole file, in dBFS
    /// (-infinity for none). See `Audibility` for the rule it is judged by.
    public let peakDBFS: Double
    /// False when libsndfile cannot seek in this format (GSM 6.10 in WAV): such a file is
    /// reopened at each loop seam instead, and a stop skips its fade-out.
    public let isSeekable: Bool
    private let isFloat: Bool
    private let allZero: Bool
    private let peak: Double
    private var source: Source

    private enum Source {
        /// The file, owned here (libsndfile never closes it) so it can be reopened, and the one
        /// libsndfile handle on it: replaced only by `restart`, closed only by `deinit`.
        case decoder(fd: Int32, handle: OpaquePointer)
        /// Interleaved samples that outlive every SoundFile (static data), and the next frame.
        case memory(UnsafeBufferPointer<Int16>, next: Int)
    }

    /// Opens `path` (a regular file only: a FIFO or device would block or never end).
    /// `interrupted` is asked now and then while the file is decoded (a long file takes seconds,
    /// many more on a slow board): a signal it returns ends the decoding with `OpenError.signal`.
    public convenience init(path: String, interrupted: (() -> Int32?)? = nil) throws(OpenError) {
        func fail(_ r: String) -> OpenError { OpenError(path: path, reason: r) }
        let file: OpenedFile
        do {
            file = try RegularFile.open(path)
        } catch {
            throw fail(error.reason.hasPrefix("is ") ? "it " + error.reason : error.reason)
        }
        if file.size == 0 {
            // Empty, or a kernel pseudo-file (/proc, /sys) that reports no size but has content.
            var byte: UInt8 = 0
            let n: Int
            do { n = try syscall("read") { Glibc.read(file.fd, &byte, 1) } } catch {
                close(file.fd)
                throw fail("read: \(error.errno)")
            }
            close(file.fd)
            throw fail(n == 0 ? "the file is empty"
                : "it is not a sound file (a kernel pseudo-file that reports no size, as those under /proc and /sys do)")
        }
        try self.init(fd: file.fd, path: path, interrupted: interrupted)
    }

    /// Opens a sound file's bytes held in memory (a WAV made in code) through a memfd.
    public convenience init(bytes: UnsafeRawBufferPointer, name: String) throws(OpenError) {
        let fd = memfd_create(name, WAKE_MFD_CLOEXEC)
        guard fd >= 0 else { throw OpenError(path: name, reason: "memfd_create: \(Errno(rawValue: errno))") }
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
            do {
                done += try syscall("write") { write(fd, base + done, bytes.count - done) }
            } catch {
                close(fd)
                throw OpenError(path: name, reason: "write to memfd: \(error.errno)")
            }
        }
        lseek(fd, 0, SEEK_SET)
        try self.init(fd: fd, path: name)
    }

    /// Takes ownership of `fd`: closed here on failure, by `deinit` otherwise.
    private init(fd: Int32, path: String, interrupted: (() -> Int32?)? = nil) throws(OpenError) {
        let d: Decoded
        do { d = try SoundFile.decode(fd: fd, path: path, interrupted: interrupted) } catch {
            close(fd)
            throw error
        }
        // Nothing below can fail: once every property is set, deinit owns the handle and fd.
        source = .decoder(fd: fd, handle: d.handle)
        self.path = path
        sampleRate = d.sampleRate
        channels = d.channels
        frames = d.frames
        formatName = d.formatName
        width = d.width
        isFloat = d.isFloat
        isSeekable = d.isSeekable
        allZero = d.allZero
        peak = d.peak
        peakDBFS = Audibility.dBFS(d.peak)
    }

    /// Plays `samples` (interleaved, `channels` to a frame) from memory; they must outlive this
    /// SoundFile (static data: the built-in sound). Measured and refused when silent, as a file is.
    public init(samples: UnsafeBufferPointer<Int16>, sampleRate: Int, channels: Int, name: String) throws(OpenError) {
        func fail(_ r: String) -> OpenError { OpenError(path: name, reason: r) }
        guard channels >= 1, channels <= 8, sampleRate >= 1000, sampleRate <= 384_000 else {
            throw fail("unsupported layout (\(channels) channels at \(sampleRate) Hz)")
        }
        let frames = samples.count / channels
        if frames == 0 { throw fail("contains no audio frames") }
        var level = LevelMeter(channels: channels)
        level.add(interleaved: UnsafeBufferPointer(rebasing: samples[0..<frames * channels]))
        let (peak, allZero) = level.result(frames: Int64(frames))
        if let why = Audibility.silenceReason(frames: Int64(frames), sampleRate: sampleRate, allZero: allZero, peak: peak) {
            throw fail(why)
        }
        source = .memory(UnsafeBufferPointer(rebasing: samples[0..<frames * channels]), next: 0)
        path = name
        self.sampleRate = sampleRate
        self.channels = channels
        self.frames = Int64(frames)
        formatName = "built into wake, Signed 16 bit PCM"
        width = .int16
        isFloat = false
        isSeekable = true
        self.allZero = allZero
        self.peak = peak
        peakDBFS = Audibility.dBFS(peak)
    }

    private struct Decoded {
        var handle: OpaquePointer
        var sampleRate: Int, channels: Int, frames: Int64
        var formatName: String
        var width: SampleWidth
        var isFloat: Bool, isSeekable: Bool, allZero: Bool
        var peak: Double
    }

    /// Opens `fd` with libsndfile, decodes it end to end (so a bad file is found when the alarm
    /// is set, not when it rings), measures its level, refuses it if silent, and returns a handle
    /// at the start of the file. On failure no handle is left open (`fd` stays the caller's).
    /// Every failure takes libsndfile's message before closing the handle it came from.
    private static func decode(fd: Int32, path: String, interrupted: (() -> Int32?)?) throws(OpenError) -> Decoded {
        func fail(_ r: String) -> OpenError { OpenError(path: path, reason: r) }
        var info = SF_INFO()
        guard let h = wake_sf_open_fd(fd, Int32(SFM_READ), &info, 0) else {
            if wake_sf_available() == 0 {
                throw OpenError(path: path, reason: String(cString: wake_sf_strerror(nil)), libraryMissing: true)
            }
            throw fail("it is not a sound file libsndfile can read (\(String(cString: wake_sf_strerror(nil))))")
        }
        /// `reason` is evaluated by the caller before this closes the handle.
        func closing(_ reason: String) -> OpenError { wake_sf_close(h); return fail(reason) }
        let channels = Int(info.channels), sampleRate = Int(info.samplerate)
        let sub = info.format & Int32(SF_FORMAT_SUBMASK)
        guard channels >= 1, channels <= 8, sampleRate >= 1000, sampleRate <= 384_000 else {
            throw closing("unsupported layout (\(info.channels) channels at \(info.samplerate) Hz)")
        }
        // Decode it all now, as doubles (full scale is 1.0 for every format), measuring per channel.
        let chunk = 4096
        var buffer = [Double](repeating: 0, count: chunk * channels)
        var level = LevelMeter(channels: channels)
        var total: Int64 = 0
        var chunks = 0
        while true {
            // Every 16 chunks (1.5 s of CD audio; milliseconds of decoding) is prompt enough for a signal.
            if chunks & 15 == 0, let signal = interrupted?() {
                var error = closing("interrupted by \(SignalChannel.name(of: signal)) while decoding it")
                error.signal = signal
                throw error
            }
            chunks &+= 1
            let n = buffer.withUnsafeMutableBufferPointer { b in
                let n = wake_sf_readf_double(h, b.baseAddress, sf_count_t(chunk))
                if n > 0 { level.add(interleaved: UnsafeBufferPointer(rebasing: b[0..<Int(n) * channels])) }
                return n
            }
            if n <= 0 { break }
            total += n
        }
        if wake_sf_error(h) != 0 {
            throw closing("decoding failed after \(total) frames (\(String(cString: wake_sf_strerror(h))))")
        }
        if total == 0 { throw closing("contains no audio frames") }
        let (peak, allZero) = level.result(frames: total)
        if let why = Audibility.silenceReason(frames: total, sampleRate: sampleRate, allZero: allZero, peak: peak) {
            throw closing(why)
        }
        // Back to the start: by seeking, or for a format libsndfile cannot seek in, by reopening.
        var handle = h
        let seekable = info.seekable != 0 && wake_sf_seek(h, 0, SEEK_SET) == 0
        if !seekable {
            do { handle = try reopen(fd: fd, replacing: h) } catch {
                throw fail("cannot go back to its start to loop it (\(error))")
            }
        }
        return Decoded(handle: handle, sampleRate: sampleRate, channels: channels, frames: total,
                       formatName: describe(format: info.format),
                       width: [Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8), Int32(SF_FORMAT_PCM_16)].contains(sub) ? .int16 : .int32,
                       // libsndfile reads float samples as integers by plain truncation (near-silence) or, with
                       // SFC_SET_SCALE_FLOAT_INT_READ, normalised to the file's peak (louder than recorded, and at
                       // the cost of a whole extra decode). So float files are read as floats and scaled here.
                       isFloat: sub == Int32(SF_FORMAT_FLOAT) || sub == Int32(SF_FORMAT_DOUBLE),
                       isSeekable: seekable, allZero: allZero, peak: peak)
    }

    /// Opens `fd` afresh from its first byte, then closes `old` (always, even when this fails).
    private static func reopen(fd: Int32, replacing old: OpaquePointer) throws(ReadError) -> OpaquePointer {
        wake_sf_close(old)
        if lseek(fd, 0, SEEK_SET) != 0 { throw .decode("lseek: \(Errno(rawValue: errno))") }
        var info = SF_INFO()
        guard let h = wake_sf_open_fd(fd, Int32(SFM_READ), &info, 0) else {
            throw .decode("sf_open_fd: \(String(cString: wake_sf_strerror(nil)))")
        }
        return h
    }

    /// Reopens the file at its start, for formats libsndfile cannot seek in. If that fails the
    /// old handle is kept (at its end), so reads return 0 and the ringer's seam check reports it.
    private func restart() throws(ReadError) {
        guard case .decoder(let fd, let old) = source else { return }
        if lseek(fd, 0, SEEK_SET) != 0 { throw .decode("lseek: \(Errno(rawValue: errno))") }
        var info = SF_INFO()
        guard let h = wake_sf_open_fd(fd, Int32(SFM_READ), &info, 0) else {
            throw .decode("reopening for the next loop: \(String(cString: wake_sf_strerror(nil)))")
        }
        wake_sf_close(old)
        source = .decoder(fd: fd, handle: h)
    }

    deinit {
        guard case .decoder(let fd, let handle) = source else { return }
        wake_sf_close(handle)
        close(fd)
    }

    /// Copies up to `frames` frames from memory, each sample through `convert`; 0 at the end.
    private func copy<T>(_ samples: UnsafeBufferPointer<Int16>, from next: Int, into buffer: UnsafeMutablePointer<T>, frames: Int,
                         _ convert: (Int16) -> T) -> Int {
        let n = max(0, min(frames, Int(self.frames) - next))
        let first = next * channels
        for i in 0..<n * channels { buffer[i] = convert(samples[first + i]) }
        source = .memory(samples, next: next + n)
        return n
    }

    /// Why this sound is silent at `volume` percent, by the `Audibility` rule, or nil.
    public func silenceReason(volume: Int) -> String? {
        Audibility.silenceReason(frames: frames, sampleRate: sampleRate, allZero: allZero, peak: peak, volume: volume)
    }

    public var duration: Duration {
        let rate = Int64(sampleRate)  // 1000...384000, checked when opened: no overflow below
        return .seconds(frames / rate) + .nanoseconds(frames % rate * 1_000_000_000 / rate)
    }

    public enum ReadError: Error, CustomStringConvertible {
        case decode(String)
        public var description: String { switch self { case .decode(let m): return m } }
    }

    /// Reads up to `frames` frames; 0 means the end of the file (or an error: see `sf_error`).
    public func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) throws(ReadError) -> Int {
        if let e = FaultInjector.fault("sndfile.read") { throw .decode("sf_readf_short: injected fault \(e)") }
        let handle: OpaquePointer
        switch source {
        case .memory(let samples, let next): return copy(samples, from: next, into: buffer, frames: frames) { $0 }
        case .decoder(_, let h): handle = h
        }
        let n = wake_sf_readf_short(handle, buffer, sf_count_t(frames))
        if n == 0, wake_sf_error(handle) != 0 { throw .decode("sf_readf_short: \(String(cString: wake_sf_strerror(handle)))") }
        return Int(n)
    }

    public func read(into buffer: UnsafeMutablePointer<Int32>, frames: Int) throws(ReadError) -> Int {
        if let e = FaultInjector.fault("sndfile.read") { throw .decode("sf_readf_int: injected fault \(e)") }
        let handle: OpaquePointer
        switch source {
        case .memory(let samples, let next): return copy(samples, from: next, into: buffer, frames: frames) { Int32($0) << 16 }
        case .decoder(_, let h): handle = h
        }
        if isFloat {
            // Same size as Int32: decode as floats in place, then convert sample by sample.
            let floats = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: Float.self)
            let n = wake_sf_readf_float(handle, floats, sf_count_t(frames))
            if n == 0, wake_sf_error(handle) != 0 { throw .decode("sf_readf_float: \(String(cString: wake_sf_strerror(handle)))") }
            for i in 0..<Int(n) * channels {
                let v = (Double(floats[i]) * 2_147_483_647).rounded()
                buffer[i] = Int32(clamping: Int64(max(-2_147_483_648, min(2_147_483_647, v))))
            }
            return Int(n)
        }
        let n = wake_sf_readf_int(handle, buffer, sf_count_t(frames))
        if n == 0, wake_sf_error(handle) != 0 { throw .decode("sf_readf_int: \(String(cString: wake_sf_strerror(handle)))") }
        return Int(n)
    }

    /// Back to the first frame: a seek, or for a file that cannot seek, a reopen.
    public func rewind() throws(ReadError) {
        try seek(to: 0)
    }

    static func describe(format: Int32) -> String {
        func name(_ code: Int32, _ command: Int32) -> String {
            var fi = SF_FORMAT_INFO()
            fi.format = code
            guard wake_sf_command(nil, command, &fi, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0, let n = fi.name else { return "?" }
            return String(cString: n)
        }
        let major = name(format & Int32(SF_FORMAT_TYPEMASK), Int32(SFC_GET_FORMAT_INFO))
        let sub = name(format & Int32(SF_FORMAT_SUBMASK), Int32(SFC_GET_FORMAT_INFO))
        return "\(major), \(sub)"
    }
}

extension SoundFile {
    /// Positions at `frame`. A file that cannot seek can only go back to its start.
    public func seek(to frame: Int64) throws(ReadError) {
        let handle: OpaquePointer
        switch source {
        case .memory(let samples, _):
            guard frame >= 0, frame <= frames else { throw .decode("seek to frame \(frame) of \(frames)") }
            source = .memory(samples, next: Int(frame))
            return
        case .decoder(_, let h): handle = h
        }
        guard isSeekable else {
            if frame == 0 { return try restart() }
            throw .decode("sf_seek: libsndfile cannot seek in this format (\(formatName))")
        }
        if wake_sf_seek(handle, sf_count_t(frame), SEEK_SET) < 0 { throw .decode("sf_seek: \(String(cString: wake_sf_strerror(handle)))") }
    }
}

/// A sound's level, per channel, for `Audibility`: the largest |sample - channel mean| over the
/// whole sound (full scale 1.0), and whether every sample was zero. Samples that are not finite
/// (a float file's NaN) are left out.
private struct LevelMeter {
    private var sum: [Double], low: [Double], high: [Double]

    init(channels: Int) {
        sum = [Double](repeating: 0, count: channels)
        low = [Double](repeating: .infinity, count: channels)
        high = [Double](repeating: -.infinity, count: channels)
    }

    /// Whole frames of interleaved samples, full scale 1.0. A loop over the chunk, not a call
    /// per sample: an unoptimised (debug, sanitizer) build decodes a long file several times
    /// slower with a call per sample, and a signal waits for the decoding.
    mutating func add(interleaved chunk: UnsafeBufferPointer<Double>) {
        let channels = sum.count
        for c in 0..<channels {
            var s = 0.0, lo = low[c], hi = high[c]
            var i = c
            while i < chunk.count {
                let v = chunk[i]
                if v.isFinite {
                    s += v
                    lo = min(lo, v)
                    hi = max(hi, v)
                }
                i += channels
            }
            sum[c] += s
            low[c] = lo
            high[c] = hi
        }
    }

    /// Whole frames of interleaved 16-bit samples, scaled as libsndfile reads them as doubles.
    mutating func add(interleaved samples: UnsafeBufferPointer<Int16>) {
        var buffer = [Double](repeating: 0, count: 4096 * sum.count)
        var start = 0
        while start < samples.count {
            let n = min(buffer.count, samples.count - start)
            buffer.withUnsafeMutableBufferPointer { b in
                for i in 0..<n { b[i] = Double(samples[start + i]) / 32768 }
                add(interleaved: UnsafeBufferPointer(rebasing: b[0..<n]))
            }
            start += n
        }
    }

    func result(frames: Int64) -> (peak: Double, allZero: Bool) {
        var peak = 0.0
        var allZero = true
        for c in sum.indices where low[c] <= high[c] {
            let mean = sum[c] / Double(frames)
            peak = max(peak, high[c] - mean, mean - low[c])
            if low[c] != 0 || high[c] != 0 { allZero = false }
        }
        return (peak, allZero)
    }
}
