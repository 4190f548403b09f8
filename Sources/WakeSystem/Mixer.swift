import CALSA
import Glibc
import WakeCore

/// One ALSA mixer (`snd_mixer`) attached to a control (`default`, `hw:0`) and the playback
/// element wake guards on it (`Master`, else `PCM`). Every failed call becomes an `ALSAError`
/// naming the call and the control.
///
/// Each call may reach a sound server (the pulse plugin's control talks to PulseAudio and
/// blocks about 30 s per call when it hangs): use it only off the event loop, on an output
/// worker or inside a `BoundedCall`. The pulse plugin binds to the default sink when the mixer
/// is opened, so open it at the moment it is needed, not ahead.
public final class Mixer {
    public let control: String
    public let element: String
    private var handle: OpaquePointer?
    private let elem: OpaquePointer
    public let range: ClosedRange<Int>
    /// Channels with their own playback volume (one when joined or mono), switches likewise.
    private let volumeChannels: [snd_mixer_selem_channel_id_t]
    private let switchChannels: [snd_mixer_selem_channel_id_t]

    /// Opens the mixer on `control` and finds the first of `elements` that has a playback volume
    /// or switch.
    public init(control: String, elements: [String] = MixerPlan.elements) throws(ALSAError) {
        self.control = control
        if let e = FaultInjector.fault("mixer.open", target: control) { throw ALSAError("snd_mixer_open", device: control, code: -e) }
        var h: OpaquePointer?
        var r = wake_snd_mixer_open(&h, 0)
        guard r >= 0, let h else { throw ALSAError("snd_mixer_open", device: control, code: r) }
        func fail(_ call: String, _ code: Int32) -> ALSAError {
            wake_snd_mixer_close(h)
            return ALSAError.explained(call, device: control, code: code)
        }
        r = wake_snd_mixer_attach(h, control)
        guard r >= 0 else { throw fail("snd_mixer_attach", r) }
        r = wake_snd_mixer_selem_register(h, nil, nil)
        guard r >= 0 else { throw fail("snd_mixer_selem_register", r) }
        r = wake_snd_mixer_load(h)
        guard r >= 0 else { throw fail("snd_mixer_load", r) }

        var found: (OpaquePointer, String)?
        var sid: OpaquePointer?
        guard wake_snd_mixer_selem_id_malloc(&sid) >= 0, let sid else { throw fail("snd_mixer_selem_id_malloc", -ENOMEM) }
        defer { wake_snd_mixer_selem_id_free(sid) }
        for name in elements {
            wake_snd_mixer_selem_id_set_index(sid, 0)
            wake_snd_mixer_selem_id_set_name(sid, name)
            if let e = wake_snd_mixer_find_selem(h, sid),
               wake_snd_mixer_selem_has_playback_volume(e) != 0 || wake_snd_mixer_selem_has_playback_switch(e) != 0 {
                found = (e, name)
                break
            }
        }
        guard let (e, name) = found else {
            wake_snd_mixer_close(h)
            throw ALSAError("snd_mixer_find_selem", device: control, code: -ENOENT,
                            detail: "the mixer has no \(elements.joined(separator: " or ")) playback control")
        }
        handle = h
        elem = e
        element = name

        func channels(joined: Bool) -> [snd_mixer_selem_channel_id_t] {
            if joined { return [SND_MIXER_SCHN_FRONT_LEFT] }
            return (0...Int32(SND_MIXER_SCHN_LAST.rawValue)).map { snd_mixer_selem_channel_id_t(rawValue: $0) }
                .filter { wake_snd_mixer_selem_has_playback_channel(e, $0) != 0 }
        }
        if wake_snd_mixer_selem_has_playback_volume(e) != 0 {
            var lo = 0, hi = 0
            wake_snd_mixer_selem_get_playback_volume_range(e, &lo, &hi)
            range = lo < hi ? lo...hi : lo...(lo + 1)
            volumeChannels = channels(joined: wake_snd_mixer_selem_has_playback_volume_joined(e) != 0 || wake_snd_mixer_selem_is_playback_mono(e) != 0)
        } else {
            range = 0...100
            volumeChannels = []
        }
        switchChannels = wake_snd_mixer_selem_has_playback_switch(e) != 0
            ? channels(joined: wake_snd_mixer_selem_has_playback_switch_joined(e) != 0 || wake_snd_mixer_selem_is_playback_mono(e) != 0) : []
    }

    deinit { close() }

    public func close() {
        if let h = handle { wake_snd_mixer_close(h) }
        handle = nil
    }

    /// The element's levels now (the mixer's cached values are refreshed first).
    public func read() throws(ALSAError) -> MixerReading {
        guard let h = handle else { throw ALSAError("snd_mixer_handle_events", device: control, code: -EBADFD) }
        if let e = FaultInjector.fault("mixer.read", target: control) { throw ALSAError("snd_mixer_selem_get_playback_volume", device: control, code: -e) }
        // Picks up changes made since the load (by the user, the server) into the cached values.
        let r = wake_snd_mixer_handle_events(h)
        if r < 0 { throw ALSAError("snd_mixer_handle_events", device: control, code: r) }
        var volumes: [Int] = []
        for ch in volumeChannels {
            var v = 0
            let r = wake_snd_mixer_selem_get_playback_volume(elem, ch, &v)
            guard r >= 0 else { throw ALSAError("snd_mixer_selem_get_playback_volume", device: control, code: r) }
            volumes.append(v)
        }
        var switches: [Bool] = []
        for ch in switchChannels {
            var v: Int32 = 0
            let r = wake_snd_mixer_selem_get_playback_switch(elem, ch, &v)
            guard r >= 0 else { throw ALSAError("snd_mixer_selem_get_playback_switch", device: control, code: r) }
            switches.append(v != 0)
        }
        return MixerReading(element: element, range: range, levels: MixerLevels(volumes: volumes, switches: switches))
    }

    /// Sets the element's levels; `levels` must have the channels `read()` gave.
    public func write(_ levels: MixerLevels) throws(ALSAError) {
        guard handle != nil else { throw ALSAError("snd_mixer_selem_set_playback_volume", device: control, code: -EBADFD) }
        if let e = FaultInjector.fault("mixer.write", target: control) { throw ALSAError("snd_mixer_selem_set_playback_volume", device: control, code: -e) }
        guard levels.volumes.count == volumeChannels.count, levels.switches.count == switchChannels.count else {
            throw ALSAError("snd_mixer_selem_set_playback_volume", device: control, code: -EINVAL,
                            detail: "the mixer's channels changed (\(volumeChannels.count) now)")
        }
        let joinedVolume = volumeChannels.count == 1 && wake_snd_mixer_selem_has_playback_channel(elem, SND_MIXER_SCHN_FRONT_RIGHT) != 0
        for (ch, v) in zip(volumeChannels, levels.volumes) {
            let r = joinedVolume ? wake_snd_mixer_selem_set_playback_volume_all(elem, v) : wake_snd_mixer_selem_set_playback_volume(elem, ch, v)
            guard r >= 0 else { throw ALSAError("snd_mixer_selem_set_playback_volume", device: control, code: r) }
        }
        let joinedSwitch = switchChannels.count == 1 && wake_snd_mixer_selem_has_playback_channel(elem, SND_MIXER_SCHN_FRONT_RIGHT) != 0
        for (ch, on) in zip(switchChannels, levels.switches) {
            let r = joinedSwitch ? wake_snd_mixer_selem_set_playback_switch_all(elem, on ? 1 : 0)
                                 : wake_snd_mixer_selem_set_playback_switch(elem, ch, on ? 1 : 0)
            guard r >= 0 else { throw ALSAError("snd_mixer_selem_set_playback_switch", device: control, code: r) }
        }
    }
}
