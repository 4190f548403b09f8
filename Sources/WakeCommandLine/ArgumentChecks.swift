import ArgumentParser
import WakeCore
import WakeRuntime

// What the parser hands over, turned into the runtime's checked values, and the checks
// ArgumentParser cannot make.

/// An ArgumentParser option's value as text, whatever its optionality.
private protocol OptionText { var optionText: String? { get } }
extension Option: OptionText {
    var optionText: String? {
        // A repeatable option's values are one text, a value a line (`AlarmOption.list`).
        if let list = wrappedValue as? [String] { return list.isEmpty ? nil : list.joined(separator: String(AlarmOption.listSeparator)) }
        return (wrappedValue as? String) ?? (wrappedValue as? String?) ?? nil
    }
}

extension RingOptionGroup {
    /// Every ring option's text by long name, as `RingSettings(values:)` takes them: each
    /// declared property (`_ringFor`) under its option's name (`ring-for`).
    var values: [String: String] {
        var values: [String: String] = [:]
        for child in Mirror(reflecting: self).children {
            guard let label = child.label, let option = child.value as? OptionText, let text = option.optionText else { continue }
            values[Self.optionName(label)] = text
        }
        return values
    }

    /// `_ringFor` -> `ring-for`
    static func optionName(_ label: String) -> String {
        var name = ""
        for ch in label.drop(while: { $0 == "_" }) {
            if ch.isUppercase { name += "-" + ch.lowercased() } else { name.append(ch) }
        }
        return name
    }

    /// The ring options checked, the config file's values under those the command line gave.
    func settings(under config: ConfigDefaults, given: Set<String>) throws(WakeFailure) -> RingSettings {
        try RingSettings(layering: values, under: config, given: given)
    }
}

extension AlarmOptions {
    init(_ c: WakeCommand, config: ConfigDefaults, given: Set<String>) throws(WakeFailure) {
        let o = c.options
        try self.init(when: c.when, dryRun: o.dryRun, quiet: o.quiet, ring: try o.ring.settings(under: config, given: given), events: o.events,
                      unpaced: c.unpaced, inhibit: config.layered(.inhibit, over: o.inhibit, given: given), wakeSystem: o.wakeSystem,
                      noWakeSystem: o.noWakeSystem, notify: config.layered(.notify, over: o.notify, given: given))
        self.config = config
        self.given = given
    }
}

enum ArgumentChecks {
    /// Options that take a value: every spelling maps to its long name.
    static let valueOptions: [String: String] = {
        // Every option of an alarm, and the commands' own that take a value.
        var spellings = ["--events": "--events", "--until": "--until", "--for": "--for",
                         "--years": "--years", "--output": "--output", "-o": "--output", "--count": "--count"]
        for option in AlarmOption.all {
            spellings[option.flag] = option.flag
            if let short = option.short { spellings["-\(short)"] = option.flag }
        }
        return spellings
    }()
    /// Short flags that take no value and may be bundled (`-qD null`).
    static let shortFlags: Set<Character> = ["q", "h"]

    /// Checks what ArgumentParser would get wrong: it calls a negative value an unknown option,
    /// and keeps the last of a repeated option, which for an alarm is more likely a slip than an
    /// intent, so that is refused, whatever spelling each occurrence uses (`-D`, `--device`,
    /// `--device=`, or bundled as `-qD`).
    /// Returns the value options given, by long name (`--volume`): what the config file must not override.
    @discardableResult
    static func checkRawArguments(_ args: [String]) throws(WakeFailure) -> Set<String> {
        var seen = Set<String>()
        func count(_ canonical: String) throws(WakeFailure) {
            // A list (`--skip-days`, `--hook`) is given once per value.
            if AlarmOption.named(String(canonical.dropFirst(2)))?.kind.isList == true { seen.insert(canonical); return }
            if !seen.insert(canonical).inserted {
                throw WakeFailure(.usage, "option \(canonical) given more than once; give it once")
            }
        }
        var i = 0
        while i < args.count {
            let a = args[i]
            i += 1
            if a == "--" { break }
            var valueFollows: String?
            if a.hasPrefix("--") {
                let name = String(a.split(separator: "=", maxSplits: 1).first ?? "")
                if let canonical = valueOptions[name] {
                    try count(canonical)
                    if !a.contains("=") { valueFollows = canonical }
                }
            } else if a.hasPrefix("-"), a.count >= 2 {
                if a.dropFirst().first?.isNumber == true {
                    throw WakeFailure(.usage, WakeSpec.ParseError(token: a, reason: "a time cannot be in the past; use +DURATION for a span from now").description)
                }
                // A bundle of short options: flags, then at most one value option, whose value is
                // the rest of the word or, when it comes last, the next word.
                for (offset, ch) in a.dropFirst().enumerated() {
                    if shortFlags.contains(ch) { continue }
                    guard let canonical = valueOptions["-\(ch)"] else { break }
                    try count(canonical)
                    if offset == a.count - 2 { valueFollows = canonical }
                    break
                }
            }
            guard let option = valueFollows else { continue }
            // A choice given without its word, as a flag (`--say` alone): say which words it takes.
            if let choice = AlarmOption.named(String(option.dropFirst(2))), case .choice(let words) = choice.kind,
               i >= args.count || (args[i].hasPrefix("-") && args[i].dropFirst().first?.isNumber != true) {
                throw WakeFailure(.usage, "\(option): missing its value; give \(choice.expects), as '\(option) \(words.last ?? "")'")
            }
            guard i < args.count else { continue }
            let value = args[i]
            i += 1
            guard value.hasPrefix("-"), value.count >= 2 else { continue }
            // ArgumentParser would take a value starting with '-' for an option: say what it is.
            if option == "--message" {
                throw WakeFailure(.usage, "--message: '\(value.printable)' looks like an option; write it as --message='\(value.printable)'")
            }
            if option == "--sound" || option == "--events" || option == "--device" || option == "--pre-alarm-sound" {
                throw WakeFailure(.usage, "\(option): '\(value.printable)' looks like an option; if it is a name, write it as ./\(value.printable)")
            }
            if value.dropFirst().first?.isNumber == true {
                if option == "--count" { throw WakeFailure(.usage, "--count \(value.printable): \(StandingAlarmActions.skipCountRule)") }
                let hint = AlarmOption.named(String(option.dropFirst(2)))?.expects ?? "a value that does not start with '-'"
                throw WakeFailure(.usage, "\(option): negative value '\(value.printable)'; give \(hint)")
            }
        }
        return seen
    }
}
