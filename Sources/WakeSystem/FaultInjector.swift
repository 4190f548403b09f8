import Glibc

/// Test-only faults for the C wrappers, compiled into debug builds only (as swift-system's
/// mocking is). `WAKE_TEST_FAULTS` holds rules separated by `;`:
///
///     site[:target]=ERROR[@after][xcount]
///
/// `site` is `pcm.open`, `pcm.write` or `sndfile.read`; `target` limits a PCM rule to one device
/// name; `ERROR` is an errno name (EIO, ENODEV, EPIPE, ESTRPIPE, EAGAIN) or HANG (a write that
/// never completes); `@after` lets that many calls succeed first; `xcount` fails that many
/// calls (default 1, `x0` for ever).
public enum FaultInjector {
    struct Rule {
        var site: String
        var target: String?
        var error: Int32
        var after: Int
        var count: Int
        var calls = 0
    }

    public static let hang: Int32 = -1

    #if DEBUG
    nonisolated(unsafe) private static var rules: [Rule] = parse(getenv("WAKE_TEST_FAULTS").map { String(cString: $0) } ?? "")

    static func parse(_ text: String) -> [Rule] {
        let names: [String: Int32] = ["EIO": EIO, "ENODEV": ENODEV, "EPIPE": EPIPE, "ESTRPIPE": ESTRPIPE,
                                      "EAGAIN": EAGAIN, "EBUSY": EBUSY, "ENOENT": ENOENT, "HANG": hang]
        return text.split(separator: ";").compactMap { item in
            let kv = item.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { return nil }
            let lhs = kv[0].split(separator: ":", maxSplits: 1)
            var spec = Substring(kv[1])
            var count = 1, after = 0
            if let x = spec.lastIndex(of: "x") { count = Int(spec[spec.index(after: x)...]) ?? 1; spec = spec[..<x] }
            if let a = spec.lastIndex(of: "@") { after = Int(spec[spec.index(after: a)...]) ?? 0; spec = spec[..<a] }
            guard let e = names[String(spec)] else { return nil }
            return Rule(site: String(lhs[0]), target: lhs.count > 1 ? String(lhs[1]) : nil, error: e, after: after, count: count)
        }
    }
    #endif

    /// The errno a call at `site` should fail with now, if a rule says so (always nil in release builds).
    public static func fault(_ site: String, target: String? = nil) -> Int32? {
        #if DEBUG
        for i in rules.indices where rules[i].site == site && (rules[i].target == nil || rules[i].target == target) {
            rules[i].calls += 1
            let n = rules[i].calls - rules[i].after
            if n >= 1 && (rules[i].count == 0 || n <= rules[i].count) { return rules[i].error }
        }
        #endif
        return nil
    }
}
