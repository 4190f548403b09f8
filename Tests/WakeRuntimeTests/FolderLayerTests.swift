import Foundation
import Testing

/// The folders of Sources/WakeRuntime call one way (issue 50): a folder that names a type another
/// folder declares depends on it, and no two folders may depend on each other, directly or round
/// a longer circle. A name scan, not the compiler's view: comments and string literals are left
/// out, and only types declared at the top of a file count (a nested `Entry` is no folder's).
///
/// The circles not yet broken are on a written list, each as the one dependency that closes it
/// and why it is still there; the test fails on a new circle and on an entry that no longer is one.
@Suite("No circle between the folders of WakeRuntime")
struct FolderLayerTests {
    /// Dependencies that run against the layering and close a circle, "From -> To", with why.
    static let knownUpward: [String: String] = [:]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Tests/WakeRuntimeTests
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/WakeRuntime").path

    /// Each folder's Swift files, as (folder, text without comments and string literals).
    static func sources() throws -> [(folder: String, file: String, text: String)] {
        let folders = try FileManager.default.contentsOfDirectory(atPath: root).sorted().filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        return try folders.flatMap { folder in
            let files = try #require(FileManager.default.enumerator(atPath: root + "/" + folder)).compactMap { $0 as? String }
                .filter { $0.hasSuffix(".swift") }.sorted()
            return try files.map { file in
                (folder, folder + "/" + file, code(of: try String(contentsOfFile: root + "/" + folder + "/" + file, encoding: .utf8)))
            }
        }
    }

    /// `text` with its comments and string literals (interpolations too) blanked, lines kept.
    static func code(of text: String) -> String {
        let chars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        func at(_ k: Int) -> Unicode.Scalar? { k < chars.count ? chars[k] : nil }
        while i < chars.count {
            let c = chars[i]
            if c == "/" && at(i + 1) == "/" {
                while i < chars.count && chars[i] != "\n" { i += 1 }
            } else if c == "/" && at(i + 1) == "*" {
                i += 2
                while i < chars.count && !(chars[i] == "*" && at(i + 1) == "/") {
                    if chars[i] == "\n" { out.append("\n") }
                    i += 1
                }
                i += 2
            } else if c == "\"" {
                let triple = at(i + 1) == "\"" && at(i + 2) == "\""
                i += triple ? 3 : 1
                while i < chars.count {
                    if chars[i] == "\\" { i += 2; continue }
                    if chars[i] == "\n" { out.append("\n"); if !triple { break } }
                    if chars[i] == "\"" && (!triple || (at(i + 1) == "\"" && at(i + 2) == "\"")) {
                        i += triple ? 3 : 1
                        break
                    }
                    i += 1
                }
                out.append(" ")
            } else {
                out.append(c)
                i += 1
            }
        }
        return String(out)
    }

    static let modifiers: Set<String> = ["public", "package", "internal", "fileprivate", "private", "final", "indirect", "open"]
    static let kinds: Set<String> = ["struct", "class", "enum", "protocol", "actor", "typealias"]

    /// The types a file declares at its top level (a line that starts with the declaration).
    static func declared(in code: String) -> [String] {
        code.split(separator: "\n").compactMap { line in
            guard let first = line.first, !first.isWhitespace else { return nil }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "<" || $0 == ":" || $0 == "{" || $0 == "=" || $0 == "(" })
            var k = 0
            while k < words.count && (words[k].hasPrefix("@") || modifiers.contains(String(words[k]))) { k += 1 }
            guard k + 1 < words.count, kinds.contains(String(words[k])) else { return nil }
            return String(words[k + 1])
        }
    }

    /// The capitalised identifiers `code` names.
    static func names(in code: String) -> Set<String> {
        var found: Set<String> = []
        var word = ""
        for c in code.unicodeScalars {
            if c == "_" || c.properties.isAlphabetic || ("0"..."9").contains(c) {
                word.unicodeScalars.append(c)
            } else {
                if let f = word.first, f.isUppercase { found.insert(word) }
                word = ""
            }
        }
        return found
    }

    /// "From -> To" for every folder that names a type declared in another, with the names.
    static func dependencies() throws -> [String: Set<String>] {
        let files = try sources()
        var home: [String: Set<String>] = [:]
        for f in files { for type in declared(in: f.text) { home[type, default: []].insert(f.folder) } }
        var edges: [String: Set<String>] = [:]
        for f in files {
            for name in names(in: f.text) {
                for to in home[name] ?? [] where to != f.folder { edges["\(f.folder) -> \(to)", default: []].insert(name) }
            }
        }
        return edges
    }

    /// The circles of `edges` ("From -> To"): each strongly connected set of two or more folders.
    static func circles(_ edges: some Collection<String>) -> [[String]] {
        var next: [String: Set<String>] = [:]
        for e in edges {
            let ends = e.components(separatedBy: " -> ")
            next[ends[0], default: []].insert(ends[1])
        }
        func reach(_ from: String) -> Set<String> {
            var seen: Set<String> = []
            var todo = Array(next[from] ?? [])
            while let n = todo.popLast() {
                if seen.insert(n).inserted { todo += next[n] ?? [] }
            }
            return seen
        }
        let reached = Dictionary(uniqueKeysWithValues: Set(next.keys).map { ($0, reach($0)) })
        var groups: Set<[String]> = []
        for (a, from) in reached where from.contains(a) {
            groups.insert(from.filter { reached[$0]?.contains(a) == true }.sorted())
        }
        return groups.sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test func theScanFindsTheFolders() throws {
        let edges = try Self.dependencies()
        #expect(edges.count > 20, "too few dependencies found under \(Self.root): the scan is broken")
        #expect(edges["Daemon -> BusAPI"]?.contains("BusAPI") == true, "the daemon makes the D-Bus API: \(edges)")
        #expect(Self.circles(["A -> B", "B -> C", "C -> A", "C -> D"]) == [["A", "B", "C"]])
    }

    @Test func noCircleBetweenFolders() throws {
        let edges = try Self.dependencies()
        let allowed = edges.filter { Self.knownUpward[$0.key] == nil }
        let circles = Self.circles(allowed.keys)
        let said = circles.map { group in
            group.joined(separator: ", ") + ":\n" + allowed.filter { e in
                let ends = e.key.components(separatedBy: " -> ")
                return group.contains(ends[0]) && group.contains(ends[1])
            }.sorted { $0.key < $1.key }.map { "  \($0.key) (\($0.value.sorted().joined(separator: ", ")))" }.joined(separator: "\n")
        }
        let fix = "pass what the lower one needs in, or move it down"
        #expect(circles.isEmpty, "these folders depend on each other; \(fix)\n\(said.joined(separator: "\n"))")
    }

    @Test func everyKnownUpwardDependencyStillClosesACircle() throws {
        let edges = try Self.dependencies()
        let circles = Self.circles(edges.keys)
        for (edge, why) in Self.knownUpward.sorted(by: { $0.key < $1.key }) {
            let ends = edge.components(separatedBy: " -> ")
            // A dependency closes a circle when both its ends are in one.
            let closes = edges[edge] != nil && circles.contains { $0.contains(ends[0]) && $0.contains(ends[1]) }
            #expect(closes, "'\(edge)' (\(why)) no longer closes a circle: take it off the list")
        }
    }
}
