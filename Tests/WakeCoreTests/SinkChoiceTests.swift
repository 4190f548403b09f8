import Testing
import WakeCore

/// `--sink` as values (issue 52, item 3): the text's check, the match among a server's sinks,
/// the PCM that reaches the chosen one.
@Suite("Sink choice")
struct SinkChoiceTests {
    static let sinks = [SinkChoice.Listed(name: "speaker", description: "Built-in Audio", bus: "pci"),
                        SinkChoice.Listed(name: "alsa_output.usb-Foo-00.analog-stereo", description: "USB Audio", bus: "usb"),
                        SinkChoice.Listed(name: "headphones", description: "headphones")]

    @Test("by name, else by description, else by a description in any case when only one has it")
    func resolve() {
        #expect(SinkChoice.resolve("speaker", among: Self.sinks)?.name == "speaker")
        #expect(SinkChoice.resolve("USB Audio", among: Self.sinks)?.name == "alsa_output.usb-Foo-00.analog-stereo")
        #expect(SinkChoice.resolve("usb audio", among: Self.sinks)?.isDetachable == true)
        #expect(SinkChoice.resolve("Speaker", among: Self.sinks) == nil, "a name is matched exactly")
        #expect(SinkChoice.resolve("nosuch", among: Self.sinks) == nil)
    }

    @Test("a missing sink is said with the ones the server has")
    func missing() {
        #expect(SinkChoice.missing("nosuch", among: Self.sinks) == "--sink 'nosuch': the sound server has no such sink (its sinks: "
            + "speaker (Built-in Audio), alsa_output.usb-Foo-00.analog-stereo (USB Audio), headphones); "
            + "give one of them by name or description")
        #expect(SinkChoice.missing("x", among: []).contains("(it has none)"))
    }

    @Test("the option refuses an empty name, a control character and an overlong one; the PCM quotes the name")
    func option() {
        for bad in ["", "a\u{1}b", "line\nbreak", String(repeating: "x", count: 256)] {
            guard case .failure(let problem) = AlarmOption.sink.parse(bad) else {
                Issue.record("--sink \(bad.debugDescription) accepted")
                continue
            }
            #expect(problem.message.hasPrefix("--sink: "), "\(problem)")
        }
        #expect(AlarmOption.sink.parse("USB Audio") == .success(.text("USB Audio")))
        #expect(SinkChoice.pcm("alsa_output.usb-Foo-00.analog-stereo") == "pulse:'alsa_output.usb-Foo-00.analog-stereo'")
        #expect(SinkChoice.pcm("Bob's") == nil, "a quote cannot go in the PCM: the ring goes to default")
    }
}

extension SinkChoiceTests {
    @Test("wake doctor's warning: a Bluetooth or USB sink, chosen or the default, with where the alarm moves if it goes")
    func detachable() {
        let earbuds = SinkChoice.Listed(name: "bluez_sink.00_11", description: "Earbuds", bus: "bluetooth")
        let sinks = Self.sinks + [earbuds]
        #expect(SinkChoice.detachableWarning(chosen: "bluez_sink.00_11", defaultName: "speaker", among: sinks)
            == "it rings on the sink bluez_sink.00_11 (Earbuds), a Bluetooth device: "
                + "if it disconnects, the alarm moves to 'Built-in Audio'")
        // The default is the USB card: the alarm moves to a sink that stays.
        let usb = "alsa_output.usb-Foo-00.analog-stereo"
        let onUSB = SinkChoice.detachableWarning(chosen: nil, defaultName: usb, among: sinks)
        #expect(onUSB?.hasSuffix("a USB device: if it disconnects, the alarm moves to 'Built-in Audio'") == true)
        #expect(SinkChoice.detachableWarning(chosen: nil, defaultName: "speaker", among: sinks) == nil)
        #expect(SinkChoice.detachableWarning(chosen: "headphones", defaultName: usb, among: sinks) == nil, "no bus: not said to vanish")
        let alone = SinkChoice.detachableWarning(chosen: nil, defaultName: earbuds.name, among: [earbuds])
        #expect(alone?.hasSuffix("the server has no other sink to ring on") == true)
    }
}

extension SinkChoiceTests {
    @Test("--sink all combines every sink but the dummy output and itself, on the combined sink's PCM")
    func all() {
        let names = ["speaker", "auto_null", "wake_all", "bluez_sink.00_11", "odd,name"]
        #expect(SinkChoice.combined(names) == ["speaker", "bluez_sink.00_11"])
        #expect(SinkChoice.pcm(choice: "all") == "pulse:'wake_all'" && SinkChoice.pcm(choice: "speaker") == "pulse:'speaker'")
    }
}
