import Foundation
import Testing
@testable import WakeCore

/// Issue 55: what a person reads is translated through po/: the template holds every message the
/// code marks (a message missing from it could never be translated), and each catalogue holds
/// the template's messages, each translation keeping its message's placeholders.
@Suite("po/ matches the messages the code marks")
struct TranslationTemplateTests {
    static let root = ReferenceTablesTests.root

    static func sources() throws -> [(path: String, text: String)] {
        let base = root + "/Sources"
        let found = try #require(FileManager.default.enumerator(atPath: base)).compactMap { $0 as? String }
        return try found.filter { $0.hasSuffix(".swift") }.sorted().map { file in
            ("Sources/" + file, try String(contentsOfFile: base + "/" + file, encoding: .utf8))
        }
    }

    static func languages() throws -> [String] {
        try String(contentsOfFile: root + "/po/LINGUAS", encoding: .utf8).split(separator: "\n")
            .flatMap { $0.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace) }.map(String.init)
    }

    @Test("po/wake.pot is the template of the marked messages")
    func templateMatchesCode() throws {
        let messages = try TranslationTemplate.messages(Self.sources())
        #expect(messages.count > 100, "too few marked messages found under \(Self.root)/Sources")
        let made = TranslationTemplate.template(messages)
        let path = Self.root + "/po/wake.pot"
        let current = try? String(contentsOfFile: path, encoding: .utf8)
        guard made != current else { return }
        if ReferenceTablesTests.regenerating {
            try made.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let known = Set(current.flatMap(TranslationTemplate.entries(ofPO:))?.map(\.id) ?? [])
        let missing = messages.map(\.id).filter { !known.contains($0) }
        Issue.record("""
            po/wake.pot is stale (\(missing.count) marked messages missing from it\(missing.first.map { ", first \"\($0)\"" } ?? "")): \
            run \(TranslationTemplate.regenerate), then 'make po'
            """)
    }

    @Test("each catalogue translates every message of the template, keeping its placeholders")
    func catalogues() throws {
        let template = try #require(TranslationTemplate.entries(ofPO: String(contentsOfFile: Self.root + "/po/wake.pot", encoding: .utf8)))
        let ids = Set(template.map(\.id))
        let languages = try Self.languages()
        #expect(languages.contains("de") && languages.contains("fr"))
        for language in languages {
            let text = try String(contentsOfFile: Self.root + "/po/\(language).po", encoding: .utf8)
            let entries = try #require(TranslationTemplate.entries(ofPO: text), "po/\(language).po cannot be read")
            let translated = Set(entries.filter { !$0.translation.isEmpty && !$0.fuzzy }.map(\.id))
            let untranslated = template.map(\.id).filter { !translated.contains($0) }
            #expect(untranslated.isEmpty,
                    "po/\(language).po lacks \(untranslated.count) translations (run 'make po'), first: \(untranslated.first ?? "")")
            for e in entries where !ids.contains(e.id) {
                Issue.record("po/\(language).po translates \"\(e.id)\", which the template no longer has: run 'make po'")
            }
            for e in entries where !e.translation.isEmpty {
                let want = Set(MessagePlaceholders.names(in: e.id)), have = Set(MessagePlaceholders.names(in: e.translation))
                #expect(want == have, "po/\(language).po: \"\(e.translation)\" must keep the placeholders of \"\(e.id)\"")
            }
        }
    }

    @Test("the template reads what a Swift literal holds, and refuses what is not one")
    func literals() throws {
        let q = "\"\"\""
        let source = [
            #"let a = localized("snoozed until {time}", t)"#,
            #"let b = localized("say \"hi\"\n\u{2019}") + localized("snoozed until {time}")"#,
            #"let c = unlocalized("not this")"#,
            #"// localized("nor this")"#,
            "let e = localized(" + q, #"    one, \"#, "    two", "    three", "    " + q + ", x)",
        ].joined(separator: "\n")
        let found = try TranslationTemplate.messages([("Sources/X.swift", source)])
        #expect(found.map(\.id) == ["snoozed until {time}", "say \"hi\"\n\u{2019}", "one, two\nthree"])
        #expect(throws: TranslationTemplate.Problem.self) {
            try TranslationTemplate.messages([("Sources/Y.swift", "let d = localized(text)")])
        }
        let pot = TranslationTemplate.template(found)
        let read = try #require(TranslationTemplate.entries(ofPO: pot.replacingOccurrences(of: "msgstr \"\"\n", with: "msgstr \"x\"\n")))
        #expect(read.map(\.id) == found.map(\.id))
    }
}
