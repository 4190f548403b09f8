import CPulse
import WakeCore

/// What `wake doctor` reads of the sound server, changing nothing: the default sink (where a new
/// stream of wake's goes) and what the server's stream restore remembers of wake's stream
/// (PulseAudio keys it by the stream's role: wake's is `alarm`), each with its mute and level.
extension SoundServerStream {
    /// The stream restore key of wake's stream (`media.role` is `alarm`, which module-stream-restore prefers).
    public static let restoreKey = "sink-input-by-media-role:alarm"

    public struct Inspection: Sendable {
        public var defaultSink: Sink
        public var sinkReading: MixerReading
        /// What the server remembers of wake's stream; nil when it remembers nothing for it, or
        /// does not list it (pipewire-pulse lists no entries: wireplumber keeps them).
        public var remembered: MixerReading?
    }

    /// `sink`: the sink an alarm chose (`--sink`) in place of the default one.
    public static func inspect(sink chosen: String? = nil) throws(Failure) -> Inspection {
        try connected { (c) throws(Failure) -> Inspection in
            var o = wake_pa_object()
            guard wake_pa_find_sink(&c, 0, chosen ?? "@DEFAULT_SINK@", &o) == 0, o.found != 0 else {
                let which = chosen.map { "no sink '\($0.printable)'" } ?? "no default sink"
                throw Failure(description: "the sound server has \(which) (\(String(cString: wake_pa_error(&c))))")
            }
            let sink = Self.sink(o)
            let reading = Self.reading("sink", o)
            var entry = wake_pa_restore_entry()
            var remembered: MixerReading?
            if wake_pa_read_restore_entry(&c, restoreKey, &entry) == 0, entry.found != 0 {
                var v = entry.volume
                let volumes = (0..<Int(v.channels)).map { Int(wake_pa_cvolume_get(&v, Int32($0))) }
                remembered = MixerReading(element: "stream", range: range, levels: MixerLevels(volumes: volumes, switches: [entry.mute == 0]))
            }
            return Inspection(defaultSink: sink, sinkReading: reading, remembered: remembered)
        }
    }
}
