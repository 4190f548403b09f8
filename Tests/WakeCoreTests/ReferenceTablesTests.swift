import Foundation
import Testing
import WakeCore

/// The manual's option and key tables are made from the option table: a row
/// added there and not regenerated fails here, saying the command that regenerates them.
@Suite("The reference's generated tables match the option table")
struct ReferenceTablesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Tests/WakeCoreTests
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Whether this run rewrites stale regions instead of failing on them.
    static var regenerating: Bool { ProcessInfo.processInfo.environment["WAKE_REGENERATE"] == "1" }

    static func check(_ path: String, _ regions: [ReferenceTables.Region], comment: (String) -> String) throws {
        let file = root + "/" + path
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let result = ReferenceTables.fill(text, regions, comment: comment)
        let filled = try #require(result,
                                  "\(path) lacks a region's markers (\(regions.map(\.name).joined(separator: ", "))): put them back")
        if filled == text { return }
        if regenerating {
            try filled.write(toFile: file, atomically: true, encoding: .utf8)
            return
        }
        Issue.record("\(path)'s generated tables are stale (the option table changed): run \(ReferenceTables.regenerate)")
    }

    @Test("the manual's ring option summary, the ring option lists, the D-Bus Add keys and the config keys")
    func manual() throws {
        try Self.check("Resources/wake.1", ReferenceTables.manual, comment: ReferenceTables.roffComment)
    }

    @Test("every ring option is in each generated table, --snooze-volume among them")
    func everyOptionGenerated() {
        #expect(AlarmOption.all(.ring).contains(.snoozeVolume))
        for o in AlarmOption.all(.ring) {
            #expect(ReferenceTables.ringOptionSummary.contains("Fl \(o.flag.dropFirst()) Ta Ar \(o.valueName)"), "\(o.flag)")
            #expect(ReferenceTables.flagList.contains("Fl \(o.flag.dropFirst())"), "\(o.flag)")
        }
        for o in AlarmOption.all(.config) { #expect(ReferenceTables.keyList(AlarmOption.all(.config), last: "").contains(".Ql \(o.name)")) }
    }

    @Test("a stale region is found and filled; a missing marker is said")
    func fillsRegions() {
        let regions = [ReferenceTables.Region(name: "X", text: "new")]
        let begin = ReferenceTables.roffComment("BEGIN GENERATED X: from the option table, " + ReferenceTables.regenerate)
        let end = ReferenceTables.roffComment("END GENERATED X")
        let text = "a\n\(begin)\nold\nolder\n\(end)\nb"
        #expect(ReferenceTables.fill(text, regions, comment: ReferenceTables.roffComment) == "a\n\(begin)\nnew\n\(end)\nb")
        #expect(ReferenceTables.fill("a\nb", regions, comment: ReferenceTables.roffComment) == nil)
    }
}
