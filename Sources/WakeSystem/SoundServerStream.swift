import CPulse
import Glibc
import WakeCore

/// wake's own stream on a sound server (PulseAudio, or PipeWire through pipewire-pulse), seen
/// and corrected through libpulse: the server keeps each application's stream mute, volume and
/// sink (stream restore), so a stream muted once in the volume control would play muted at
/// every later alarm, whatever the default sink's mixer says.
///
/// At ring time, on the output worker (every call can wait on the server, each bounded by
/// `timeout`), `raise` finds this process's newest sink-input (`application.process.id`),
/// unmutes it and raises it to the floor, then does the same to the sink it plays on: the sink
/// is raised rather than the stream moved to the default sink, so the user's routing (and what
/// the server remembers of it) is left alone and only levels are changed, which are put back.
/// With `--mixer off` only the stream is raised: it is wake's own, the sink is everyone's.
///
/// libpulse is loaded with dlopen on first use: commands that never ring on a server never load it,
/// and a machine without it still rings (the guard says it cannot look).
public enum SoundServerStream {
    /// Levels as `MixerReading`s: the server's volumes are raw (65536, `PA_VOLUME_NORM`, is
    /// 100 %), one switch (on: unmuted).
    public static let range = MixerSaveFile.soundServerRange
    public static let streamControl = "pulse-stream"
    public static let sinkPrefix = MixerSaveFile.sinkPrefix
    /// Save-file entries for what the server's stream restore remembers of wake's stream
    /// (`pulse-stream-restore:<module-stream-restore.id>`): a wake killed mid-ring cannot put its
    /// stream back (it is gone with the process), so the next start puts back the remembered entry.
    public static let restorePrefix = MixerSaveFile.streamRestorePrefix
    public static let timeout: Int32 = 1500

    /// The stream and the sink as found, and what was set (nil where nothing needed changing).
    public struct Change: Sendable {
        public var stream: UInt32
        /// The key the server's stream restore keeps this stream under; empty when it has none.
        public var restoreID: String
        public var streamBefore: MixerReading
        public var streamApplied: MixerLevels?
        public var sink: String
        public var sinkBefore: MixerReading
        public var sinkApplied: MixerLevels?
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        /// The stream plays into the server's stand-in for a missing device: no device at all.
        public var isDummyOutput = false
    }

    /// A sink as the volume control names it.
    public struct Sink: Sendable, Equatable {
        public var name: String
        public var description: String

        /// The sink a server offers when it has no output device at all, so that streams still
        /// have somewhere to go: PulseAudio's module-always-sink and PipeWire's pipewire-pulse
        /// both name it `auto_null` ("Dummy Output"). Sound sent there reaches nobody; a sink
        /// the user made (a null sink of their own, for recording) has another name.
        public var isDummyOutput: Bool { name == "auto_null" }

        public var dummyOutputProblem: String {
            "the sound server has no output device: its '\(description.printable)' (\(name.printable)) plays to nobody"
        }
    }

    final class Library: @unchecked Sendable {
        var functions = wake_pa_functions()
        let loaded: Bool
        init() { loaded = wake_pa_load(&functions) == 0 }
    }
    static let library = Library()

    /// Whether to ask the sound server about an opened device (its sinks, wake's stream): the
    /// PCM is a server's client (`PCM.isServerBacked`: pulse, pipewire, or a PCM of one's own
    /// over them) and the server can be found. Known by the opened PCM's type, not its name, so
    /// the buffer, the stop, the stream guard and the dummy-output check agree on one answer.
    public static func isAskable(serverBacked: Bool, device: String) -> Bool {
        serverBacked && SoundServerEnvironment.explainUnreachable(device: device) == nil
    }

    /// A C string held in a fixed-size array of a shim struct (a name, a key).
    static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// A connection for one short exchange; closed by `body`'s end.
    static func connected<T>(_ body: (inout wake_pa_connection) throws(Failure) -> T) throws(Failure) -> T {
        guard library.loaded else { throw Failure(description: "libpulse (libpulse0) cannot be loaded") }
        var c = wake_pa_connection()
        defer { wake_pa_disconnect(&c) }
        let ok = withUnsafePointer(to: &library.functions) { wake_pa_connect($0, &c, timeout) == 0 }
        guard ok else { throw Failure(description: "cannot reach the sound server: \(String(cString: wake_pa_error(&c)))") }
        return try body(&c)
    }

    static func reading(_ element: String, _ o: wake_pa_object) -> MixerReading {
        var v = o.volume
        let volumes = (0..<Int(v.channels)).map { Int(wake_pa_cvolume_get(&v, Int32($0))) }
        return MixerReading(element: element, range: range, levels: MixerLevels(volumes: o.has_volume != 0 ? volumes : [], switches: [o.mute == 0]))
    }

    static func cvolume(_ levels: MixerLevels) -> pa_cvolume {
        var v = pa_cvolume()
        v.channels = UInt8(clamping: levels.volumes.count)
        for (i, x) in levels.volumes.prefix(32).enumerated() { wake_pa_cvolume_set(&v, Int32(i), UInt32(clamping: x)) }
        return v
    }

    static func sink(_ o: wake_pa_object) -> Sink { Sink(name: text(o.name), description: text(o.description)) }

    /// The server's default sink, where a new stream of wake's goes unless the server remembers
    /// another for it: the arm-time look for a server with no output device.
    public static func defaultSink() throws(Failure) -> Sink {
        try connected { (c) throws(Failure) -> Sink in
            var o = wake_pa_object()
            guard wake_pa_find_sink(&c, 0, "@DEFAULT_SINK@", &o) == 0, o.found != 0 else {
                throw Failure(description: "cannot read the sound server's default sink (\(String(cString: wake_pa_error(&c))))")
            }
            return sink(o)
        }
    }

    /// Finds wake's newest stream and the sink it plays on; throws (`isDummyOutput`) when that
    /// sink is the server's dummy output. Unmutes the stream and raises it to `streamFloor`
    /// percent, and the sink to `sinkFloor` (nil: the sink is only read), calling `save` with
    /// what is about to change before it changes (the crash file). The change's `...Applied`
    /// are nil where nothing was changed; `sinkBefore` says how the sink was found either way.
    public static func raise(streamFloor: Int, sinkFloor: Int?, pid: Int32 = getpid(), save: (Change) -> Void) throws(Failure) -> Change {
        try connected { (c) throws(Failure) -> Change in
            var stream = wake_pa_object()
            // The plugin's stream is made when the PCM is prepared; give the server a moment to list it.
            for _ in 0..<10 {
                guard wake_pa_find_stream(&c, pid, &stream) == 0 else { throw Failure(description: String(cString: wake_pa_error(&c))) }
                if stream.found != 0 { break }
                SystemClock.sleep(for: .milliseconds(50))
            }
            guard stream.found != 0 else { throw Failure(description: "wake's stream is not on the sound server") }
            var sink = wake_pa_object()
            guard wake_pa_find_sink(&c, stream.sink, nil, &sink) == 0, sink.found != 0 else {
                throw Failure(description: "cannot read the sink wake's stream plays on (\(String(cString: wake_pa_error(&c))))")
            }
            let found = Self.sink(sink)
            if found.isDummyOutput { throw Failure(description: found.dummyOutputProblem, isDummyOutput: true) }
            let sinkName = found.name
            var change = Change(stream: stream.index, restoreID: text(stream.restore_id), streamBefore: reading("stream", stream), streamApplied: nil,
                                sink: sinkName, sinkBefore: reading("sink", sink), sinkApplied: nil)
            change.streamApplied = MixerPlan.raised(change.streamBefore, floor: streamFloor)
            change.sinkApplied = sinkFloor.flatMap { MixerPlan.raised(change.sinkBefore, floor: $0) }
            guard change.streamApplied != nil || change.sinkApplied != nil else { return change }
            save(change)
            if let target = change.streamApplied {
                var v = cvolume(target)
                let r = target.volumes.isEmpty ? wake_pa_set_stream(&c, stream.index, 0, nil) : wake_pa_set_stream(&c, stream.index, 0, &v)
                guard r == 0 else { throw Failure(description: "cannot unmute or raise wake's stream (\(String(cString: wake_pa_error(&c))))") }
            }
            if let target = change.sinkApplied {
                var v = cvolume(target)
                guard setSink(&c, sinkName, target, &v) == 0 else {
                    throw Failure(description: "cannot unmute or raise the sink '\(sinkName.printable)' (\(String(cString: wake_pa_error(&c))))")
                }
            }
            return change
        }
    }

    private static func setSink(_ c: inout wake_pa_connection, _ name: String, _ target: MixerLevels, _ v: inout pa_cvolume) -> Int32 {
        let mute: Int32 = target.isMuted ? 1 : 0
        return target.volumes.isEmpty ? wake_pa_set_sink(&c, name, mute, nil) : wake_pa_set_sink(&c, name, mute, &v)
    }

    /// What `restore` did to each part.
    public struct Restored: Sendable {
        public var stream: (MixerReading, kept: Bool)?
        public var sink: (MixerReading, kept: Bool)?
    }

    /// Puts back what `raise` changed, where it is still as wake set it (MixerPlan.restored).
    /// The stream only while it exists (before the PCM closes).
    public static func restore(_ change: Change) throws(Failure) -> Restored {
        try connected { (c) throws(Failure) -> Restored in
            var out = Restored()
            if let applied = change.streamApplied {
                var now = wake_pa_object()
                if wake_pa_find_stream(&c, getpid(), &now) == 0, now.found != 0, now.index == change.stream {
                    let current = reading("stream", now)
                    let (levels, kept) = MixerPlan.restored(saved: change.streamBefore.levels, applied: applied, current: current.levels)
                    var v = cvolume(levels)
                    let r = levels.volumes.isEmpty ? wake_pa_set_stream(&c, change.stream, levels.isMuted ? 1 : 0, nil)
                        : wake_pa_set_stream(&c, change.stream, levels.isMuted ? 1 : 0, &v)
                    guard r == 0 else { throw Failure(description: "cannot put wake's stream back (\(String(cString: wake_pa_error(&c))))") }
                    out.stream = (MixerReading(element: "stream", range: range, levels: levels), kept)
                }
            }
            if let applied = change.sinkApplied {
                out.sink = try restoreSink(&c, change.sink, saved: change.sinkBefore.levels, applied: applied, shouldStop: { false })
            }
            return out
        }
    }

    /// Nil when `shouldStop` said so before the change.
    private static func restoreSink(_ c: inout wake_pa_connection, _ name: String, saved: MixerLevels, applied: MixerLevels,
                                    shouldStop: () -> Bool) throws(Failure) -> (MixerReading, kept: Bool)? {
        var now = wake_pa_object()
        guard wake_pa_find_sink(&c, 0, name, &now) == 0, now.found != 0 else {
            throw Failure(description: "the sink '\(name.printable)' is gone (\(String(cString: wake_pa_error(&c))))")
        }
        let current = reading("sink", now)
        let (levels, kept) = MixerPlan.restored(saved: saved, applied: applied, current: current.levels)
        if levels != current.levels {
            if shouldStop() { return nil }
            var v = cvolume(levels)
            guard setSink(&c, name, levels, &v) == 0 else {
                throw Failure(description: "cannot put the sink '\(name.printable)' back (\(String(cString: wake_pa_error(&c))))")
            }
        }
        return (MixerReading(element: "sink", range: range, levels: levels), kept)
    }

    /// After a crash: puts back what the server's stream restore remembers of wake's stream
    /// (`pulse-stream-restore:ID`), where it is still as wake raised it.
    public static func restoreSavedStream(_ entry: MixerSaveFile.Entry, shouldStop: () -> Bool = { false }) -> MixerStateStore.RestoreOutcome {
        let name = String(entry.mixer.dropFirst(restorePrefix.count))
        if let refused = refusedRange(entry) { return refused }
        do {
            return try connected { (c) throws(Failure) -> MixerStateStore.RestoreOutcome in
                var remembered = wake_pa_restore_entry()
                guard wake_pa_read_restore_entry(&c, name, &remembered) == 0 else {
                    throw Failure(description: "cannot read the server's stream restore (\(String(cString: wake_pa_error(&c))))")
                }
                // PipeWire's pipewire-pulse lists no entries (wireplumber keeps its own), so what
                // it remembers of the stream cannot be read, nor safely written blind.
                guard remembered.found != 0 else {
                    return .beyondReach("the sound server does not list what it remembers of wake's stream (PipeWire keeps it in "
                        + "wireplumber), so the stream may keep the level wake raised it to until you change it")
                }
                var v = remembered.volume
                let volumes = (0..<Int(v.channels)).map { Int(wake_pa_cvolume_get(&v, Int32($0))) }
                let current = MixerLevels(volumes: volumes, switches: [remembered.mute == 0])
                let (levels, kept) = MixerPlan.restored(saved: entry.saved.levels, applied: entry.applied, current: current)
                if levels != current {
                    if shouldStop() { return .stopped }
                    var target = levels.volumes.count == volumes.count ? cvolume(levels) : remembered.volume
                    guard wake_pa_write_restore_entry(&c, &remembered, levels.isMuted ? 1 : 0, &target) == 0 else {
                        throw Failure(description: "cannot write the server's stream restore (\(String(cString: wake_pa_error(&c))))")
                    }
                }
                return .restored(MixerReading(element: "stream", range: range, levels: levels), kept: kept)
            }
        } catch {
            return .failed(ALSAError("libpulse", device: name, code: 0, detail: error.description))
        }
    }

    /// A saved entry whose range is not the server's is never set (the parse refuses it too):
    /// its levels would mean something else here, up to +120 dB.
    static func refusedRange(_ entry: MixerSaveFile.Entry) -> MixerStateStore.RestoreOutcome? {
        guard entry.saved.range != range else { return nil }
        return .beyondReach("its saved volume range \(entry.saved.range.lowerBound) to \(entry.saved.range.upperBound) is not the sound "
            + "server's \(range.lowerBound) to \(range.upperBound) (100 %), so its levels are not set")
    }

    /// After a crash: puts back a sink the save file names (`pulse-sink:NAME`).
    public static func restoreSaved(_ entry: MixerSaveFile.Entry, shouldStop: () -> Bool = { false }) -> MixerStateStore.RestoreOutcome {
        let name = String(entry.mixer.dropFirst(sinkPrefix.count))
        if let refused = refusedRange(entry) { return refused }
        do {
            let done = try connected { (c) throws(Failure) in
                try restoreSink(&c, name, saved: entry.saved.levels, applied: entry.applied, shouldStop: shouldStop)
            }
            guard let (reading, kept) = done else { return .stopped }
            return .restored(reading, kept: kept)
        } catch {
            return .failed(ALSAError("libpulse", device: name, code: 0, detail: error.description))
        }
    }
}
