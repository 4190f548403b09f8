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
            + "speaker (Built-in Audio), alsa_output.usb-Foo-00.analog-stereo (USB Audio), headphones); give one of them by name or description")
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
