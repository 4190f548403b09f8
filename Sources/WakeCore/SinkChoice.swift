/// `--sink`: which of a sound server's sinks an alarm rings on (PulseAudio, or PipeWire through
/// pipewire-pulse), as values: the check of a text, the match against the sinks the server
/// lists, and the ALSA PCM that reaches the chosen one.
///
/// A sink is given by its name (`alsa_output.usb-...`, stable across reboots) or by its
/// description (`USB Audio`, what a volume control shows). At arm time the description is
/// resolved to the name, and the name is what a standing alarm stores and a ring opens: ALSA's
/// pulse PCM with the sink as its device (`pulse:'NAME'`), so the stream is made on that sink
/// and nothing the server remembers of wake's stream is changed. When the sink goes away mid-ring
/// (a USB card unplugged, Bluetooth out of range) PulseAudio and PipeWire move the stream to a
/// sink that exists (the default) and it rings on; before the ring, a sink that is gone makes
/// the PCM fail to open on PulseAudio (the fallback chain then rings on `default`) and plays on
/// the default sink on PipeWire. Either way the ring says where it is.
public enum SinkChoice {
    /// A sink as the server lists it.
    public struct Listed: Sendable, Equatable {
        public var name: String
        public var description: String
        /// The sink's `device.bus` property (`bluetooth`, `usb`, `pci`), empty when it has none.
        public var bus: String

        public init(name: String, description: String, bus: String = "") {
            self.name = name; self.description = description; self.bus = bus
        }

        /// `headphones (USB Audio)`, or the name alone when the description says nothing more.
        public var shown: String {
            description.isEmpty || description == name ? name.printable : "\(name.printable) (\(description.printable))"
        }

        /// A device that can disappear in the night: a Bluetooth or USB one.
        public var isDetachable: Bool { ["bluetooth", "usb"].contains(bus) }
    }

    /// `--sink all`: one stream on every sink, in step. The ring loads the server's own
    /// `module-combine-sink` without a list of sinks (so it takes every sink, and each that
    /// appears while it rings) as the sink `combinedName`, plays on it, and unloads it after.
    public static let all = "all"
    public static let combinedName = "wake_all"
    /// What the volume control shows for it.
    public static let combinedDescription = "Every sink (wake)"

    /// The sinks `all` combines, of those the server lists: every one but the server's dummy
    /// output and the combined sink itself, and none whose name the module's list cannot hold.
    public static func combined(_ names: [String]) -> [String] {
        names.filter { $0 != combinedName && $0 != "auto_null" && !$0.isEmpty && !$0.contains(where: { ", '\"\\".contains($0) }) }
    }

    /// The PCM a ring with `--sink choice` opens: the combined sink's for `all`.
    public static func pcm(choice: String) -> String? { choice == all ? pcm(combinedName) : pcm(choice) }

    /// The most a sink name may take: what the server's own names and the stream guard hold.
    public static let longest = 255

    /// Why `text` cannot name a sink at all, or nil.
    public static func problem(_ text: String) -> String? {
        if text.isEmpty { return "empty sink name; give a sink's name or description ('wake --list-devices' lists them), or leave it out" }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            return "'\(text.printable)' holds a control character; give a sink's name or description as 'wake --list-devices' lists it"
        }
        if text.utf8.count > longest {
            return "'\(text.printable)' is longer than \(longest) bytes; "
                + "give a sink's name or description as 'wake --list-devices' lists it"
        }
        return nil
    }

    /// The ALSA PCM that opens a stream on the sink called `name`; nil when the name cannot be
    /// put in one (a quote or a backslash: a description that was never resolved, which no
    /// server names a sink), and the ring goes to `default`, the server's default sink.
    public static func pcm(_ name: String) -> String? {
        guard !name.contains("'"), !name.contains("\\") else { return nil }
        return "pulse:'\(name)'"
    }

    /// The sink `text` names among `sinks`: by name, else by description, else by description
    /// in any case when only one matches; nil when none does.
    public static func resolve(_ text: String, among sinks: [Listed]) -> Listed? {
        if let byName = sinks.first(where: { $0.name == text }) { return byName }
        if let byDescription = sinks.first(where: { $0.description == text }) { return byDescription }
        let folded = sinks.filter { $0.description.lowercased() == text.lowercased() }
        return folded.count == 1 ? folded.first : nil
    }

    /// `wake doctor`'s warning for an alarm that rings on a Bluetooth or USB sink (`chosen`, else
    /// the server's default, `defaultName`), with where the server will move it if it goes: the
    /// default sink, or another that stays; nil when the sink it rings on stays.
    public static func detachableWarning(chosen: String?, defaultName: String?, among sinks: [Listed]) -> String? {
        guard let ringsOn = sinks.first(where: { $0.name == (chosen ?? defaultName) }), ringsOn.isDetachable else { return nil }
        let others = sinks.filter { $0.name != ringsOn.name }
        let next = others.first { $0.name == defaultName } ?? others.first { !$0.isDetachable } ?? others.first
        let kind = ringsOn.bus == "bluetooth" ? "a Bluetooth device" : "a USB device"
        let then = next.map { "if it disconnects, the alarm moves to '\(($0.description.isEmpty ? $0.name : $0.description).printable)'" }
            ?? "if it disconnects, the server has no other sink to ring on"
        return "it rings on the sink \(ringsOn.shown), \(kind): \(then)"
    }

    /// The line for a sink the server does not have, with the ones it has.
    public static func missing(_ text: String, among sinks: [Listed]) -> String {
        let names = sinks.isEmpty ? "it has none" : "its sinks: " + sinks.map(\.shown).joined(separator: ", ")
        return "--sink '\(text.printable)': the sound server has no such sink (\(names)); give one of them by name or description"
    }
}
