import Foundation
import Testing

/// The core stays pure (ARCHITECTURE.md, Invariants): WakeCore imports nothing but the Swift
/// standard library, so no clock, file, device, Glibc or Foundation can creep into it. An import
/// added to Sources/WakeCore fails here, naming the file, the line and the module.
@Suite("WakeCore imports nothing")
struct CoreImportTests {
    /// Modules WakeCore may import (the standard library is imported implicitly anyway).
    static let allowed: Set<String> = ["Swift"]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Tests/WakeCoreTests
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/WakeCore").path

    /// `import M`, `import struct M.T`, `@preconcurrency import M`, `@_exported public import M`...
    static var importLine: Regex<(Substring, Substring)> {
        #/^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)/#
    }

    @Test func onlyTheStandardLibrary() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 10, "no sources found under \(Self.sources)")
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let m = try Self.importLine.prefixMatch(in: line) else { continue }
                let module = m.output.1
                if !Self.allowed.contains(String(module)) { found.append("Sources/WakeCore/\(file):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))") }
            }
        }
        #expect(found.isEmpty, "WakeCore must stay pure: move what needs these modules to WakeSystem or WakeRuntime\n\(found.joined(separator: "\n"))")
    }

    @Test func theCheckSeesImports() throws {
        for line in ["import Glibc", "  @preconcurrency import Foundation", "@_exported public import Dispatch", "import struct Foundation.Date"] {
            #expect(try Self.importLine.prefixMatch(in: line) != nil, "\(line)")
        }
        for line in ["/// import Glibc", "let important = 1", "// import Foundation"] {
            #expect(try Self.importLine.prefixMatch(in: line) == nil, "\(line)")
        }
    }
}
