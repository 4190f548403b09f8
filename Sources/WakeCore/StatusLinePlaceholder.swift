// Placeholder until the core's StatusLine lands (helper branch h-core).
public enum StatusLine {
    public static func fit(label: String, deadline: String, remaining: Duration, now: String, width: Int?) -> String {
        let full = "\(label) \(deadline) | in \(Formatting.span(remaining)) | now \(now)"
        guard let width, width > 1 else { return full }
        return String(full.prefix(width - 1))
    }
}
