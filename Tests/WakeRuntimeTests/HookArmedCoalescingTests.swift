import Foundation
import Testing
import WakeCore
@testable import WakeRuntime
@testable import WakeSystem

/// A daemon arms every alarm as it starts or reloads: a hook hears the latest `armed`, not one
/// run per alarm (2,000 alarms were 2,000 runs of every hook, past the queue's limit).
@Suite("Hook runs of armed coalesce")
struct HookArmedCoalescingTests {
    @Test("a waiting armed run is replaced by the newer one; other events keep their runs, in order")
    func armedCoalesces() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wake-hook-coalesce-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = dir + "/record", record = dir + "/runs"
        try "#!/bin/sh\necho \"$1 $2\" >> '\(record)'\nsleep 0.3\n".write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)
        let worker = try HookWorker()
        func job(_ event: String, _ alarm: String) -> HookWorker.Job {
            .init(key: script, name: "record", event: event, path: script, arguments: [script, event, alarm],
                  environment: ["PATH=/usr/bin:/bin"], input: [], timeout: .seconds(30), directory: dir)
        }
        for i in 1...50 { worker.submit(job("armed", "a\(i)")) }
        worker.submit(job("ringing", "a50"))
        worker.submit(job("armed", "a51"))
        let deadline = Date().addingTimeInterval(30)
        while worker.busy > 0 && Date() < deadline { usleep(20_000) }
        #expect(worker.busy == 0)
        let (done, dropped) = worker.take()
        #expect(dropped.isEmpty)
        let runs = (try? String(contentsOfFile: record, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        #expect(done.count == runs.count)
        let armedBefore = runs.prefix { $0.hasPrefix("armed") }
        #expect((1...2).contains(armedBefore.count), "runs: \(runs)")
        #expect(armedBefore.last == "armed a50")
        #expect(Array(runs.dropFirst(armedBefore.count)) == ["ringing a50", "armed a51"])
    }
}
