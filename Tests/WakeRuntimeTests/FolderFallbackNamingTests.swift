import Foundation
import Testing
import WakeCore
import WakeEngine
@testable import WakeRuntime
import WakeSystem

/// A folder or list whose every file fails at ring time rings wake's built-in sound: the ring
/// line, the `ringing` event and a redraw name that sound, not the file that never played.
@Suite("A folder's files all failing: what rings is named")
struct FolderFallbackNamingTests {
    @Test("the ring line is said again naming wake's built-in sound; the ringing event's sound is built-in")
    func namesTheBuiltInSound() throws {
        let directory = NSTemporaryDirectory() + "wake-folder-naming-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let world = FakeWorld(realtime: RunnerTests.evening)
        let runner = Runner(clock: world, timers: world, output: world)
        let log = try EventLog(path: directory + "/events.jsonl", zone: .utc)
        let logObserver = EventLogObserver(log: log, zone: .utc)
        let lines = Console.LineCapture()
        let console = ConsoleObserver(console: Console(capturing: lines), zone: .utc, settings: AlarmEngine.Settings())
        logObserver.soundChoice = { runner.setup(of: $0)?.ring.entries.first }
        console.soundChoice = { runner.setup(of: $0)?.ring.entries.first }
        runner.observe(with: logObserver)
        runner.observe(with: console)
        // The output as SupervisedOutput reports a folder whose files are all gone.
        world.onStart = { w in
            w.onEvent?(.fallback(from: "null", to: "built-in sound on null", reason: "'/m/gone.wav': no such file"))
            w.onEvent?(.builtInChosen)
            w.onEvent?(.opened(device: "null", format: "S16_LE", paced: false))
            w.onEvent?(.audible)
        }
        var setup = try RunnerTests.setup(world)
        setup.ring.entries = ["/m/gone.wav", "/m/also-gone.wav"]
        try runner.arm(setup)
        world.advance(by: RunnerTests.morning - world.realtime)
        #expect(runner.isRinging)

        let ringing = lines.lines.filter { $0.hasPrefix("RINGING:") }
        #expect(ringing.count == 2 && ringing.last?.contains("playing wake's built-in sound") == true, "\(lines.lines)")
        #expect(console.lastRingingLine?.contains("gone.wav") == false,
                "a redraw names what rings: \(String(describing: console.lastRingingLine))")
        let events = ((try? String(contentsOfFile: directory + "/events.jsonl", encoding: .utf8)) ?? "").split(separator: "\n")
        let event = events.first { $0.contains("\"event\":\"ringing\"") }.map(String.init) ?? ""
        #expect(event.contains("\"sound\":\"built-in\"") && !event.contains("gone.wav"), "\(events)")
    }
}
