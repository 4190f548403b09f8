import Glibc
import SystemPackage

/// The arm-time device check: opens the PCM with the sound's format, configures it, reads back
/// what it got, and closes it again (a device is never held during the wait).
///
/// ALSA's `file:` PCM creates and truncates its output file when it is configured (alsa-lib 1.2:
/// at hw_params), and opening it checks nothing about the path. So its path is checked here
/// first, without writing: its directory must exist, and the file must be writable, or creatable
/// in that directory. With `sideEffectFree: true` (`--dry-run`) a `file:` PCM is then only opened
/// and closed, never configured, so the user's file is left exactly as it was (the report gives
/// the format asked for, and `bufferFrames` 0). With `false` (arming for real) it is configured
/// and a moment of silence is written through ALSA, checking the real write path.
public enum DeviceProbe {
    public struct Report: Sendable, Equatable {
        /// `S16_LE, 2 ch, 48000 Hz`.
        public var format: String
        public var channels: Int
        public var rate: Int
        /// `null` and `file` PCMs: no clock, wake paces its writes.
        public var isClockless: Bool
        /// A sound server's client (`PCM.isServerBacked`).
        public var isServerBacked: Bool = false
        public var bufferFrames: Int
    }

    public static func probe(device: String, format: PCM.SampleFormat, channels: Int, rate: Int,
                             latency: Duration = .milliseconds(100), serverLatency: Duration? = nil,
                             sideEffectFree: Bool) throws(ALSAError) -> Report {
        if let target = fileTarget(device) {
            try checkFileTarget(target, device: device)
            if sideEffectFree {
                let opened = try PCM.openUnconfigured(device: device)
                return Report(format: "\(format), \(channels) ch, \(rate) Hz", channels: channels, rate: rate,
                              isClockless: opened.isClockless, bufferFrames: 0)
            }
        }
        let pcm = try PCM(device: device, format: format, channels: channels, rate: rate, latency: latency,
                          serverLatency: serverLatency)
        defer { pcm.close() }
        if pcm.isClockless && !sideEffectFree {
            let frames = max(pcm.bufferFrames, 16)
            let zeros = [UInt8](repeating: 0, count: frames * channels * format.bytesPerSample)
            var r = 0
            for _ in 0..<4 where r >= 0 { r = zeros.withUnsafeBytes { pcm.write($0.baseAddress!, frames: frames, probe: true) } }
            pcm.drop()
            if r < 0 && r != -Int(EAGAIN) { throw ALSAError("snd_pcm_writei", device: device, code: Int32(clamping: r)) }
        }
        return Report(format: "\(pcm.format), \(pcm.channels) ch, \(pcm.rate) Hz", channels: pcm.channels, rate: pcm.rate,
                      isClockless: pcm.isClockless, isServerBacked: pcm.isServerBacked, bufferFrames: pcm.bufferFrames)
    }

    /// The output path of a `file:` PCM name, as ALSA's argument syntax writes it:
    /// `file:/path`, `file:'/path',raw`, `file:"/path"`, `file:FILE=/path,FORMAT=raw`.
    /// Nil for other PCMs, and for a pipe (`file:'|command'`), which has no path to check.
    public static func fileTarget(_ device: String) -> String? {
        guard device.hasPrefix("file:") else { return nil }
        var args: [String] = []
        var current = ""
        var quote: Character?
        for ch in device.dropFirst("file:".count) {
            if let q = quote {
                if ch == q { quote = nil } else { current.append(ch) }
            } else if ch == "'" || ch == "\"" {
                quote = ch
            } else if ch == "," {
                args.append(current)
                current = ""
            } else {
                current.append(ch)
            }
        }
        args.append(current)
        var path: String?
        for (i, a) in args.enumerated() {
            if a.hasPrefix("FILE=") { path = String(a.dropFirst(5)); break }
            if i == 0 && !a.hasPrefix("FORMAT=") { path = a }
        }
        guard let path, !path.isEmpty, !path.hasPrefix("|") else { return nil }
        return path
    }

    /// Checks a `file:` PCM's output path without writing to it.
    static func checkFileTarget(_ path: String, device: String) throws(ALSAError) {
        func fail(_ what: String, _ e: Errno) -> ALSAError { ALSAError("open", device: device, code: -e.rawValue, detail: what) }
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        switch RegularFile.kind(of: dir) {
        case nil: throw fail("the directory '\(dir.printable)' does not exist", .noSuchFileOrDirectory)
        case .directory?: break
        case let k?: throw fail("'\(dir.printable)' is \(k), not a directory", .notDirectory)
        }
        switch RegularFile.kind(of: path) {
        case nil:
            if access(dir, W_OK | X_OK) != 0 {
                throw fail("cannot create '\(path.printable)': \(Errno(rawValue: errno))", Errno(rawValue: errno))
            }
        case .regular?, .characterDevice?:
            if access(path, W_OK) != 0 {
                throw fail("cannot write '\(path.printable)': \(Errno(rawValue: errno))", Errno(rawValue: errno))
            }
        case let k?:
            throw fail("'\(path.printable)' is \(k), not a regular file", k == .directory ? .isDirectory : .noSuchAddressOrDevice)
        }
    }
}
