import CSndFile
import CLinux
import Glibc
import SystemPackage
import WakeCore

/// A sound file opened with libsndfile, validated by decoding it once end to end, and held
/// open for the whole alarm: deleting or replacing the file during the night changes nothing.
public final class SoundFile {
    public struct OpenError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot use sound file '\(path.printable)': \(reason)" }
    }

    /// The sample type the file is decoded to, chosen so 16-bit sources pass through bit-exact.
    public enum SampleWidth: Sendable { case int16, int32 }

    public let path: String
    public let sampleRate: Int
    public let channels: Int
    public let frames: Int64
    public let formatName: String
    public let width: SampleWidth
    private let isFloat: Bool
    fileprivate let handle: OpaquePointer

    /// Opens `path` (a regular file only: a FIFO or device would block or never end).
    public convenience init(path: String) throws(OpenError) {
        func fail(_ r: String) -> OpenError { OpenError(path: path, reason: r) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw fail(Errno(rawValue: errno).description) }
        var st = stat()
        fstat(fd, &st)
        if (st.st_mode & S_IFMT) == S_IFDIR { close(fd); throw fail("is a directory") }
        if (st.st_mode & S_IFMT) != S_IFREG { close(fd); throw fail("not a regular file") }
        if st.st_size == 0 { close(fd); throw fail("the file is empty") }
        // Reads of a regular file never block; clear O_NONBLOCK all the same for libsndfile.
        _ = fcntl(fd, F_SETFL, 0)
        try self.init(fd: fd, path: path)
    }

    /// Opens sound held in memory (the embedded default sound) through a memfd.
    public convenience init(bytes: UnsafeRawBufferPointer, name: String) throws(OpenError) {
        let fd = memfd_create(name, WAKE_MFD_CLOEXEC)
        guard fd >= 0 else { throw OpenError(path: name, reason: "memfd_create: \(Errno(rawValue: errno))") }
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n <= 0 { close(fd); throw OpenError(path: name, reason: "write: \(Errno(rawValue: errno))") }
            done += n
        }
        lseek(fd, 0, SEEK_SET)
        try self.init(fd: fd, path: name)
    }

    private init(fd: Int32, path: String) throws(OpenError) {
        func fail(_ r: String) -> OpenError { OpenError(path: path, reason: r) }
        var info = SF_INFO()
        guard let h = sf_open_fd(fd, Int32(SFM_READ), &info, 1) else {
            let msg = String(cString: sf_strerror(nil))
            close(fd)
            throw fail("not a sound file libsndfile can read (\(msg))")
        }
        handle = h
        self.path = path
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        formatName = SoundFile.describe(format: info.format)
        let sub = info.format & Int32(SF_FORMAT_SUBMASK)
        width = [Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_U8), Int32(SF_FORMAT_PCM_16)].contains(sub) ? .int16 : .int32
        // libsndfile reads float samples as integers by plain truncation (near-silence) or, with
        // SFC_SET_SCALE_FLOAT_INT_READ, normalised to the file's peak (louder than recorded, and at
        // the cost of a whole extra decode). So float files are read as floats and scaled here.
        isFloat = sub == Int32(SF_FORMAT_FLOAT) || sub == Int32(SF_FORMAT_DOUBLE)
        guard channels >= 1, channels <= 8, sampleRate >= 1000, sampleRate <= 384_000 else {
            sf_close(h)
            throw fail("unsupported layout (\(info.channels) channels at \(info.samplerate) Hz)")
        }
        // Decode it all once now, so a bad file is found when the alarm is set, not when it rings.
        var buffer = [Int32](repeating: 0, count: 4096 * channels)
        var total: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBufferPointer { sf_readf_int(h, $0.baseAddress, 4096) }
            if n <= 0 { break }
            total += n
        }
        let err = sf_error(h)
        if err != 0 {
            let msg = String(cString: sf_strerror(h))
            sf_close(h)
            throw fail("decoding failed after \(total) frames (\(msg))")
        }
        if total == 0 { sf_close(h); throw fail("contains no audio frames") }
        frames = total
        if sf_seek(h, 0, SEEK_SET) != 0 {
            sf_close(h)
            throw fail("cannot seek back to the start (\(String(cString: sf_strerror(h))))")
        }
    }

    deinit { sf_close(handle) }

    public var duration: Duration { .nanoseconds(frames * 1_000_000_000 / Int64(sampleRate)) }

    public enum ReadError: Error, CustomStringConvertible {
        case decode(String)
        public var description: String { switch self { case .decode(let m): return m } }
    }

    /// Reads up to `frames` frames; 0 means the end of the file (or an error: see `sf_error`).
    public func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) throws(ReadError) -> Int {
        if let e = FaultInjector.fault("sndfile.read") { throw .decode("sf_readf_short: injected fault \(e)") }
        let n = sf_readf_short(handle, buffer, sf_count_t(frames))
        if n == 0, sf_error(handle) != 0 { throw .decode("sf_readf_short: \(String(cString: sf_strerror(handle)))") }
        return Int(n)
    }

    public func read(into buffer: UnsafeMutablePointer<Int32>, frames: Int) throws(ReadError) -> Int {
        if let e = FaultInjector.fault("sndfile.read") { throw .decode("sf_readf_int: injected fault \(e)") }
        if isFloat {
            // Same size as Int32: decode as floats in place, then convert sample by sample.
            let floats = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: Float.self)
            let n = sf_readf_float(handle, floats, sf_count_t(frames))
            if n == 0, sf_error(handle) != 0 { throw .decode("sf_readf_float: \(String(cString: sf_strerror(handle)))") }
            for i in 0..<Int(n) * channels {
                let v = (Double(floats[i]) * 2_147_483_647).rounded()
                buffer[i] = Int32(clamping: Int64(max(-2_147_483_648, min(2_147_483_647, v))))
            }
            return Int(n)
        }
        let n = sf_readf_int(handle, buffer, sf_count_t(frames))
        if n == 0, sf_error(handle) != 0 { throw .decode("sf_readf_int: \(String(cString: sf_strerror(handle)))") }
        return Int(n)
    }

    public func rewind() throws(ReadError) {
        if sf_seek(handle, 0, SEEK_SET) != 0 { throw .decode("sf_seek: \(String(cString: sf_strerror(handle)))") }
    }

    static func describe(format: Int32) -> String {
        func name(_ code: Int32, _ command: Int32) -> String {
            var fi = SF_FORMAT_INFO()
            fi.format = code
            guard sf_command(nil, command, &fi, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0, let n = fi.name else { return "?" }
            return String(cString: n)
        }
        let major = name(format & Int32(SF_FORMAT_TYPEMASK), Int32(SFC_GET_FORMAT_INFO))
        let sub = name(format & Int32(SF_FORMAT_SUBMASK), Int32(SFC_GET_FORMAT_INFO))
        return "\(major), \(sub)"
    }
}

extension SoundFile {
    public func seek(to frame: Int64) throws(ReadError) {
        if sf_seek(handle, sf_count_t(frame), SEEK_SET) < 0 { throw .decode("sf_seek: \(String(cString: sf_strerror(handle)))") }
    }
}
