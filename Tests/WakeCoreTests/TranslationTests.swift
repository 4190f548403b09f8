import Testing
@testable import WakeCore

/// Issue 55: a marked message is looked up in the bound catalogue and its values filled by name.
@Suite("Messages in the reader's language")
struct TranslationTests {
    @Test("nothing bound, or a message the catalogue lacks, reads as English")
    func english() {
        #expect(localized("snoozed until {time}", "07:09") == "snoozed until 07:09")
        MessageCatalogue.$current.withValue(.table([:])) {
            #expect(localized("snoozed until {time}", "07:09") == "snoozed until 07:09")
        }
    }

    @Test("a translation places the values by name, in its own order")
    func reordered() {
        let german = MessageCatalogue.table(["{name} rings at {time}": "Um {time} klingelt {name}"])
        MessageCatalogue.$current.withValue(german) {
            #expect(localized("{name} rings at {time}", "work", "06:30") == "Um 06:30 klingelt work")
        }
    }

    @Test("a value is put in as it is, and a brace that names no value stays")
    func valuesAsTheyAre() {
        #expect(localized("file {file}", "{time}") == "file {time}")
        #expect(localized("{a} and {b}", "x") == "x and {b}")
        #expect(localized("{ not one } {a}", "x") == "{ not one } x")
        #expect(localized("{a}{a}", "x") == "xx")
        #expect(MessagePlaceholders.names(in: "{b} {a} {b} {}") == ["b", "a"])
    }
}
