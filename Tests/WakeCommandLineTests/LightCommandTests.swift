import Foundation
import Testing
import WakeCore

/// Issue 56, `--light`'s refusals through the command line, in process: a bad value and a sunrise
/// longer than the wait (64), a bad config.toml value (78); the light itself: WakeRuntimeTests
/// (the runner's timing), WakeTests/LightEndToEndTests (logind).
@Suite("--light on the command line, in process")
struct LightCommandTests {
    @Test("a one-off's --light longer than its wait, or a word it does not take: one line, exit 64, before anything else")
    func refused() throws {
        let world = try TestWorld()
        for (args, words) in [(["+30s", "--dry-run", "--light", "sunrise:1m"],
                               "--light sunrise:1m: the sunrise of 1m is longer than the wait (30s); give a sunrise of 30s or less, "
                               + "or set the alarm later"),
                              (["07:00", "--dry-run", "--light", "dawn"], "--light: invalid light 'dawn'; use sunrise, sunrise:SPAN"),
                              (["add", "07:00", "--name", "x", "--light", "sunrise:3h"], "--light: a sunrise of 3h is longer than 2h")] {
            let r = world.run(args + ["-D", "null"])
            #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains(words), "\(args): \(r)")
        }
        try world.writeConfig("light = \"sunrise\"\n")
        let r = world.run(["+30s", "--dry-run", "-D", "null", "--light", "off"])
        #expect(r.code == 0 && !r.stderr.contains("sunrise"), "a command line's off undoes config.toml's: \(r)")
        try world.writeConfig("light = \"dawn\"\n")
        let bad = world.run(["07:00", "--dry-run", "-D", "null"])
        #expect(bad.code == 78 && bad.stderr.contains("light: invalid light 'dawn'"), "\(bad)")
    }
}
