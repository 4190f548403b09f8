/// What an output worker plays into: an ALSA PCM (`PCM`), or wake's own stream on a sound
/// server (`SoundServerPlayback`), which ALSA's pulse plugin would otherwise stand for.
public protocol PlaybackDevice: AnyObject {
    var device: String { get }
    var format: PCM.SampleFormat { get }
    var channels: Int { get }
    var rate: Int { get }
    var bufferFrames: Int { get }
    /// Takes audio as fast as it is written (`null`, `file`): the caller paces it.
    var isClockless: Bool { get }
    /// A sound server's client: the server holds what is queued, and a drop silences it at once.
    var isServerBacked: Bool { get }
    var typeName: String { get }
    var delayFrames: Int { get }
    /// Frames taken, or a negative errno: -EAGAIN when there is no room, -EPIPE or -ESTRPIPE
    /// for `recover`, anything else a failure that `writeFailure` says in words.
    func play(_ buffer: UnsafeRawPointer, frames: Int) -> Int
    func writeFailure(_ code: Int) -> String
    func recover(from code: Int) throws(ALSAError)
    /// Takes back queued frames not yet played, so a stop is heard at once; how many.
    func rewindQueued() -> Int
    /// Waits for room, at the latest until `fd` (the worker's request descriptor) is readable,
    /// then true; `descriptors` is the caller's, kept from one wait to the next.
    func waitForRoom(wakingOn fd: Int32?, descriptors: inout [Poll.Descriptor]) -> Bool
    /// Stops at once, discarding what is queued.
    func drop()
    func close()
}
