import Testing
@testable import WakeCore

@Suite("concatenated(separator:) is joined(separator:)")
struct StringJoiningTests {
    @Test("empty, one, many, empty parts, non-ASCII, long separators", arguments: [
        [], [""], ["mon"], ["mon", "wed", "fri"], ["", "", ""], ["a", ""], ["réveil", "日本", "🔔"],
        (0..<200).map { String(repeating: "x", count: $0 % 17) },
    ] as [[String]])
    func sameAsJoined(parts: [String]) {
        for separator in ["", ",", "  ", "→ ", String(repeating: "-", count: 40)] {
            #expect(parts.concatenated(separator: separator) == parts.joined(separator: separator))
        }
        #expect(parts.concatenated() == parts.joined())
    }
}
