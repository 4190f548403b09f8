import ArgumentParser

/// The block of `wake --help` that names every command, made from the commands' own abstracts
/// (the tree's order), so a new command is listed without a second description to keep.
enum CommandList {
    /// Where a command's words begin, and the widest line: ArgumentParser wraps at 80 columns, the line break counted.
    static let column = 12
    static let width = 79

    /// `Commands (each takes --help):` and a line per command, its abstract wrapped under a
    /// hanging indent. Each line stays within `width`, which ArgumentParser then leaves as it is.
    static var block: String {
        let commands = WakeCommandTree.subcommands.map { ($0.configuration.commandName ?? "", $0.configuration.abstract) }
            + [("help", "Show a command's help, as 'wake help add'.")]
        var lines = ["Commands (each takes --help):"]
        for (name, abstract) in commands {
            var line = "  " + name + String(repeating: " ", count: max(1, column - 2 - name.count))
            var first = true
            for word in abstract.split(separator: " ") {
                if !first, line.count + 1 + word.count > width {
                    lines.append(line)
                    line = String(repeating: " ", count: column) + word
                } else {
                    line += (first ? "" : " ") + word
                }
                first = false
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
