import Testing
@testable import WakeCore

@Suite("Hooks: --hook EVENT=COMMAND and what a hook is told")
struct HookCommandTests {
    @Test("a command is split as a shell splits it, without a shell")
    func words() throws {
        let c = try HookCommand.parse(#"ringing=curl -s -X POST 'http://ha.local/api/webhook/wake up' "a \"b\" \c""#).get()
        #expect(c.event == "ringing")
        #expect(c.words == ["curl", "-s", "-X", "POST", "http://ha.local/api/webhook/wake up", #"a "b" \c"#])
        #expect(try HookCommand.parse("all=playerctl play").get().runs(on: "stopped"))
        #expect(try !HookCommand.parse("stopped=playerctl play").get().runs(on: "ringing"))
    }

    @Test("what is not a hook: one line each, through the option table")
    func refusals() {
        func problem(_ text: String) -> String? {
            if case .failure(let p) = AlarmOption.hook.parse(text) { return p.message } else { return nil }
        }
        #expect(problem("playerctl")
                == "--hook: 'playerctl' is not EVENT=COMMAND; give an event and a command, as ringing=\"playerctl pause\"")
        #expect(problem("rung=lamp on")?.hasPrefix("--hook: unknown event 'rung'; use one of armed, notice,") == true)
        #expect(problem("ringing=") == "--hook: 'ringing=' has no command after '='; give the program to run")
        #expect(problem("ringing=echo 'open") == "--hook: the command 'echo 'open' ends inside a quote; close it")
        #expect(problem("ringing=true\nstopped=false") == nil)
    }

    @Test("the environment: the facts, the passed variables and nothing else of wake's")
    func environment() {
        let fields: [(String, JSONValue)] = [("alarm", .string("work")), ("until", .string("2026-12-03T07:09:00+01:00")),
                                             ("by", .string("mpris")), ("caller_program", .string("playerctl"))]
        let env = HookEnvironment(event: "snoozed", alarm: "work", line: "{}\n", fields: fields,
                                  facts: .init(occurrence: "2026-12-03T07:00:00+01:00", next: "2026-12-03T07:09:00+01:00",
                                               message: "Gym", round: 1),
                                  inherited: ["PATH": "/usr/bin", "HOME": "/home/me", "SECRET": "x"], test: true)
        #expect(env.variables == ["PATH": "/usr/bin", "HOME": "/home/me", "WAKE_EVENT": "snoozed", "WAKE_ALARM": "work",
                                  "WAKE_MESSAGE": "Gym", "WAKE_TIME": "2026-12-03T07:00:00+01:00",
                                  "WAKE_NEXT": "2026-12-03T07:09:00+01:00", "WAKE_SNOOZE_UNTIL": "2026-12-03T07:09:00+01:00",
                                  "WAKE_BY": "mpris:playerctl", "WAKE_ROUND": "1", "WAKE_TEST": "1"])
        #expect(env.entries.first == "HOME=/home/me")
    }
}
