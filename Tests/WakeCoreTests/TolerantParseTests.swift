import Testing
@testable import WakeCore

@Suite("TolerantParse: one mistake costs only itself")
struct TolerantParseTests {
    @Test("a bad config line is set aside; the others are read")
    func configLine() {
        let text = "volume = 6O\nsnooze = \"5m\"\nbogus = 1\nmixer = \"off\"\n"
        let (entries, problems) = TolerantParse.parse(text, dropping: .line) { (t) throws(AlarmBook.ParseError) in
            try ConfigFile.parse(t, known: ["volume", "snooze", "mixer"])
        }
        #expect(entries?.map(\.key) == ["snooze", "mixer"])
        #expect(problems.map(\.line) == [1, 3])
    }

    @Test("a broken alarm is set aside whole; the others are read")
    func alarmTable() {
        let text = """
            [alarms.work]
            time = "06:30"
            days = ["mon"]
            created = "2026-11-23T03:00:00Z"

            [alarms.bad]
            tyme = "07:00"
            time = "07:00"
            created = "2026-11-23T03:00:00Z"

            [alarms.gym]
            time = "18:00"
            created = "2026-11-23T03:00:00Z"

            """
        let (alarms, problems) = TolerantParse.parse(text, dropping: .table) { (t) throws(AlarmBook.ParseError) in try AlarmBook.parse(t) }
        #expect(alarms?.map(\.name) == ["work", "gym"])
        #expect(problems.count == 1 && problems.first?.line == 7)
    }

    @Test("a line the reader could not decode sets aside its alarm (its header too), and is said first")
    func unreadableLines() {
        let text = """
            [alarms.work]
            time = "06:30"
            created = "2026-11-23T03:00:00Z"

            [alarms.latin1]

            created = "2026-11-23T03:00:00Z"

            [
            time = "07:00"
            created = "2026-11-23T03:00:00Z"

            [alarms.gym]
            time = "18:00"
            created = "2026-11-23T03:00:00Z"

            """
        let unreadable = [6, 9].map { AlarmBook.ParseError(line: $0, message: "not valid UTF-8 text") }
        let (alarms, problems) = TolerantParse.parse(text, dropping: .table, unreadable: unreadable) { (t) throws(AlarmBook.ParseError) in
            try AlarmBook.parse(t)
        }
        #expect(alarms?.map(\.name) == ["work", "gym"])
        #expect(problems.map(\.line) == [6, 9])
    }

    @Test("nothing readable: nil, with the problem; it always ends")
    func nothing() {
        let (value, problems) = TolerantParse.parse("[[x]]\n", dropping: .table) { (t) throws(AlarmBook.ParseError) in try AlarmBook.parse(t) }
        #expect(value?.isEmpty ?? true)
        #expect(!problems.isEmpty)
        let (v2, p2) = TolerantParse.parse("x", dropping: .line) { (_: String) throws(AlarmBook.ParseError) -> Int in
            throw AlarmBook.ParseError(line: 1, message: "always")
        }
        #expect(v2 == nil && p2.count == 2)
    }
}
