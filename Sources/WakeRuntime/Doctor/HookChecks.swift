import WakeCore
import WakeSystem

extension Doctor {
    /// The hooks the daemon would run, by the checks its dispatcher makes (`HookFolder.list`,
    /// `HookFolder.program(of:path:)`): each file of the hooks folder, and each alarm's `--hook`
    /// (its own or config.toml's) with the program found on the daemon's `PATH`. A file or program
    /// the dispatcher refuses is a FAIL; a file without the execute bit is said and passes (that is
    /// how a hook is turned off, as with run-parts). No hooks, no lines.
    static func hookFindings(rows: [StandingAlarmActions.Row], config: ConfigDefaults, folder: String?,
                             path: String? = HookFolder.inheritedEnvironment()["PATH"]) -> [DoctorFinding] {
        var out: [DoctorFinding] = []
        switch folder.map(HookFolder.list) ?? .absent {
        case .absent: break
        case .unsafe(let why):
            // The folder, or the one holding it (as `HookFolder.list` names them).
            let parent = folder.map { f in String(f[..<(f.lastIndex(of: "/") ?? f.endIndex)]) }
            out.append(refusal("hooks.folder", alarms: [], why, file: why.hasPrefix("the folder holding") ? parent : folder))
        case .entries(let entries):
            for e in entries {
                let shown = "\(HookFolder.name)/\(e.name.printable)"
                switch e.verdict {
                case .runs:
                    out.append(DoctorFinding(.hooks, "hooks.file", .pass, localized("{file} runs on every event of every alarm", shown)))
                case .notExecutable:
                    out.append(DoctorFinding(.hooks, "hooks.file", .pass,
                                             localized("{file} is not executable, so it is not run (chmod u+x it to run it)", shown)))
                case .unsafe(let why): out.append(refusal("hooks.file", alarms: [], why, file: e.path))
                }
            }
        }
        // Each command once, with the alarms that run it (config.toml's `hook` is every alarm's).
        var commands: [(command: HookCommand, alarms: [String])] = []
        for row in rows {
            let settings = row.settings ?? (try? RingSettings.tolerating(stored: row.alarm.options, defaults: config))?.settings
            for c in settings?.hooks.commands ?? [] {
                if let i = commands.firstIndex(where: { $0.command == c }) {
                    commands[i].alarms.append(row.alarm.name)
                } else {
                    commands.append((c, [row.alarm.name]))
                }
            }
        }
        for (command, alarms) in commands {
            switch HookFolder.program(of: command, path: path) {
            case .runs(let program):
                let runs = command.event == HookCommand.every
                    ? localized("--hook '{command}' runs '{program}' on every event", command.text.printable, program.printable)
                    : localized("--hook '{command}' runs '{program}' on {event}", command.text.printable, program.printable, command.event)
                out.append(DoctorFinding(.hooks, "hooks.command", alarms: alarms, .pass, runs))
            case .refused(let why):
                let file = command.words.first.flatMap { HookFolder.resolve($0, path: path) }
                out.append(refusal("hooks.command", alarms: alarms, why, file: file))
            }
        }
        return out
    }

    /// A refusal's line, as the dispatcher says it, as a FAIL: what was found, and its remedy
    /// (after the last "; ") as the fix, naming the file where the line says "it".
    private static func refusal(_ check: String, alarms: [String], _ line: String, file: String?) -> DoctorFinding {
        let parts = line.split(separator: "; ", omittingEmptySubsequences: false)
        guard parts.count > 1, let last = parts.last else { return DoctorFinding(.hooks, check, alarms: alarms, .fail, line) }
        var fix = String(last)
        if let file, fix.hasSuffix(" it") { fix = String(fix.dropLast(3)) + " " + shellWord(file) }
        return DoctorFinding(.hooks, check, alarms: alarms, .fail, parts.dropLast().joined(separator: "; "), fix: fix)
    }

    /// A path as a shell reads it back (quoted unless it needs none), escaped for the terminal.
    private static func shellWord(_ path: String) -> String {
        let safe = "0123456789/._-+,:@%".unicodeScalars
        let plain = path.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || safe.contains($0)) }
        if plain { return path }
        return ("'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'").printable
    }
}
