import Foundation
import Testing
import WakeCore
@testable import WakeTestSupport

/// The guide and the manual against the one description of the options (`AlarmOption`): an
/// option added there and forgotten here fails. The command line's and the files' own checks run
/// in process (Tests/WakeCommandLineTests/OptionTableCommandTests.swift).
@Suite("Options: the guide and the manual agree with the one table")
struct OptionTableTests {
    @Test("the guide's options table names every ring option")
    func guideNamesRingOptions() throws {
        let guide = try String(contentsOfFile: packageRoot + "/docs/guide.md", encoding: .utf8)
        let section = guide.components(separatedBy: "\n## Options").dropFirst().first?.components(separatedBy: "\n## ").first ?? ""
        for option in AlarmOption.all(.ring) {
            #expect(section.contains("`\(option.flag)") , "docs/guide.md's Options section does not name \(option.flag)")
        }
    }

    @Test("the manual names every config key in FILES")
    func manualNamesConfigKeys() throws {
        let manual = try String(contentsOfFile: packageRoot + "/Resources/wake.1", encoding: .utf8)
        let files = manual.components(separatedBy: ".It Pa $XDG_CONFIG_HOME/wake/config.toml").dropFirst().first ?? ""
        let paragraph = files.components(separatedBy: ".It Pa").first ?? ""
        for option in AlarmOption.all(.config) {
            #expect(paragraph.contains(".Ql \(option.name)"), "wake.1's config.toml entry does not name \(option.name)")
        }
    }
}
