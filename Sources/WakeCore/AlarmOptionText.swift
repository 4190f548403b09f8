/// An option and its value in words, from the table alone: the dry run's and `wake test`'s line
/// for an option that has no line of its own, and the generated reference (`ReferenceTables`).
extension AlarmOption {
    /// `ring-for` -> `ring for`: how the dry run and `wake test` name it.
    public var label: String { name.replacingDashes }

    /// What a value is called in the reference and the help: `--volume PERCENT`.
    public var valueName: String {
        switch kind {
        case .file, .files: return "FILE"
        case .device: return "PCM"
        case .sink: return "SINK"
        case .percent: return "PERCENT"
        case .duration: return "DURATION"
        case .choice: return "MODE"
        case .message: return "TEXT"
        case .count: return "N"
        case .preAlarm: return "DURATION[,PERCENT]"
        case .hooks: return "EVENT=COMMAND"
        case .days: return "Nd"
        case .date: return "DATE"
        case .name: return "NAME"
        case .light: return "LIGHT"
        }
    }

    /// The default in words: the built-in value's text, what unset means, or `none`.
    public var shownDefault: String { defaultText ?? unset ?? "none" }

    /// A checked value in words (`40 %`, `0 (to ring until stopped)`); nil: unset.
    public func describe(_ value: Value?) -> String {
        guard let value else { return unset ?? "none" }
        switch (kind, value) {
        case (.percent, .number(let n)): return "\(n) %"
        case (.duration(_, let zero, _), .duration(let d)):
            return d == .zero ? "0" + (zero.map { " (\($0))" } ?? "") : DurationText.format(d)
        case (.files, .text(let t)), (.hooks, .text(let t)): return AlarmOption.list(t).map(\.printable).joined(separator: ", ")
        case (.days, .number(let n)): return "\(n)d"
        case (_, .number(let n)): return String(n)
        case (_, .duration(let d)): return DurationText.format(d)
        case (_, .text(let t)): return t.printable
        }
    }
}

private extension String {
    var replacingDashes: String { String(map { $0 == "-" ? " " : $0 }) }
}
