import Testing

/// `--message` through the command line: refused with one line, no config key, said by the dry
/// run. (In process since issue 50; were Tests/WakeTests/MessageTests.swift's refused, notInConfig
/// and dryRun; the ring, the daemon and the terminal stay there.)
@Suite("Message: the command line")
struct MessageCommandTests {
    @Test("longer than 120 characters, empty, or in config.toml: one line naming what is wrong", arguments: [
        (["07:00", "--message", String(repeating: "x", count: 121)], 64, "limit of 120"),
        (["add", "07:00", "--message", String(repeating: "x", count: 121)], 64, "limit of 120"),
        (["07:00", "--message", ""], 64, "empty message"),
        (["07:00", "--message", "-x", "--dry-run"], 64, "--message='-x'"),
        (["07:00", "--message", "a", "--message", "b"], 64, "more than once"),
    ])
    func refused(args: [String], status: Int32, text: String) throws {
        let world = try TestWorld()
        let r = world.run(args)
        #expect(r.code == status && r.stderrIsOneLine && r.stderr.contains(text), "\(r)")
    }

    @Test("message is no config key: a note belongs to one alarm")
    func notInConfig() throws {
        let world = try ConfigFileCommandTests.world("message = \"hi\"\n")
        let r = world.run(["07:00", "--dry-run"])
        #expect(r.code == 78 && r.stderr.contains("unknown key 'message'"), "\(r)")
    }

    @Test("the dry run says the message")
    func dryRun() throws {
        let r = try runWake(["07:00", "--dry-run", "-D", "null", "--inhibit", "off", "--message", "Dentist"])
        #expect(r.code == 0 && r.stdout.contains("\nmessage: Dentist\n"), "\(r)")
    }
}
