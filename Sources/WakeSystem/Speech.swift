import CEspeak
import Glibc
import WakeCore

/// A text spoken by espeak-ng into memory (`SpeechClip`), for `--say on`. libespeak-ng.so.1 is
/// loaded with dlopen on the first call (`Sources/CEspeak/shim.h`): a command that speaks
/// nothing never maps it; `release` closes it again. Synthesis takes tens of milliseconds (the
/// library's set-up most of it) and is done before a ring, never while it rings.
public enum Speech {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The library cannot be loaded (not installed): what to install fixes it.
        public var libraryMissing: Bool
        public var reason: String
        public var description: String { reason }
    }

    /// The packages that give wake its voice.
    public static let aptLine = "sudo apt install libespeak-ng1 espeak-ng-data"

    /// Whether libespeak-ng.so.1 loads, with every function wake uses. Debug builds let a test
    /// pretend it does not (`WAKE_TEST_ESPEAK=missing`), as `WAKE_TEST_PYTHON` does for Python.
    public static var isAvailable: Bool {
        #if DEBUG
        if let seam = getenv("WAKE_TEST_ESPEAK"), String(cString: seam) == "missing" { return false }
        #endif
        return wake_espeak_ready() != 0
    }

    /// `text` spoken in English: mono 16-bit samples at espeak-ng's rate.
    public static func synthesize(_ text: String) throws(Failure) -> SpeechClip {
        guard isAvailable else {
            throw Failure(libraryMissing: true, reason: "espeak-ng is not installed (libespeak-ng.so.1 cannot be loaded)")
        }
        var out = wake_speech()
        let status = text.withCString { wake_espeak_speak($0, &out) }
        defer { wake_speech_free(&out) }
        guard status == 0 else {
            let message = withUnsafeBytes(of: out.message) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            let why = message.isEmpty ? "status \(status)" : message
            throw Failure(libraryMissing: status == -2, reason: out.setup_failed != 0 ? "espeak-ng cannot start: \(why) (is espeak-ng-data installed?)"
                                                                                      : "espeak-ng failed: \(why)")
        }
        guard let samples = out.samples, out.count > 0, out.rate > 0 else {
            throw Failure(libraryMissing: false, reason: "espeak-ng gave no audio for '\(text.printable)'")
        }
        return SpeechClip(samples: Array(UnsafeBufferPointer(start: samples, count: out.count)), rate: Int(out.rate), text: text)
    }

    /// Ends espeak-ng and closes its library, giving back its voice data (about 1.5 MiB) and its
    /// code; the next `synthesize` loads it again (some 30 ms). The daemon calls it after making
    /// the clips of the rings that come near, so a daemon waiting for them holds none of it.
    public static func release() { wake_espeak_release() }
}
