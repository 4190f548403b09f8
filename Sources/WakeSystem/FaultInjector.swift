import Glibc
#if DEBUG
import Synchronization
#endif

/// Test-only faults for the C wrappers, compiled into debug builds only (as swift-system's
/// mocking driver is). Rules are separated by `;`:
///
///     site[:target]=ERROR[@after][xcount]
///
/// `site` is `pcm.open`, `pcm.write`, `mixer.open`, `mixer.read`, `mixer.write`, `sndfile.read`,
/// or `syscall` for any call through the `syscall()` funnel; `target` limits a PCM or mixer rule
/// to one device or control, and a `syscall` rule to one call, named as the funnel names it
/// without what follows a parenthesis (`open`, `write`, `flock`, `timerfd_create`, `socket`);
/// `ERROR` is an errno name (`EIO`, `ENOSPC`, `EMFILE`, `EAGAIN`, `EINTR`...) or HANG (a PCM
/// write that never completes); `@after` lets that many calls succeed first; `xcount` fails
/// that many calls (default 1, `x0` for ever).
///
/// A `syscall` fault replaces the call: the funnel acts as if the call had returned -1 with that
/// errno, so `EINTR` is retried (the call then runs for real) and anything else becomes the
/// wrapper's typed error, with the call's name.
///
/// Where the rules come from:
/// - `WAKE_TEST_FAULTS`, read once at start-up: the whole process (end-to-end tests).
/// - `FaultInjector.inject(rules) { ... }`: only the calls made inside the body, on the calling
///   task (a task-local value), so unit tests running side by side do not see each other's
///   faults. These are checked first.
public enum FaultInjector {
    struct Rule {
        var site: String
        var target: String?
        var error: Int32
        var after: Int
        var count: Int
        var calls = 0
        var injected = 0
    }

    public static let hang: Int32 = -1

    #if DEBUG
    /// `WAKE_TEST_FAULTS`'s rules, counted under a lock: output workers and bounded calls make
    /// their calls through the funnel on threads of their own, beside the loop's.
    private static let rules = Mutex<[Rule]>(parse(getenv("WAKE_TEST_FAULTS").map { String(cString: $0) } ?? ""))

    static let errnoNames: [String: Int32] = [
        "EIO": EIO, "ENODEV": ENODEV, "EPIPE": EPIPE, "ESTRPIPE": ESTRPIPE, "EAGAIN": EAGAIN, "EWOULDBLOCK": EWOULDBLOCK,
        "EBUSY": EBUSY, "ENOENT": ENOENT, "EINTR": EINTR, "ENOSPC": ENOSPC, "EDQUOT": EDQUOT, "EMFILE": EMFILE,
        "ENFILE": ENFILE, "EACCES": EACCES, "EPERM": EPERM, "EROFS": EROFS, "ENOMEM": ENOMEM, "EINVAL": EINVAL,
        "EEXIST": EEXIST, "ENXIO": ENXIO, "EBADF": EBADF, "ECANCELED": ECANCELED, "ECONNREFUSED": ECONNREFUSED,
        "ENOLCK": ENOLCK, "EADDRINUSE": EADDRINUSE,
        "HANG": hang,
    ]

    /// The rules in `text`; an item that does not parse is left out (`inject` refuses those).
    static func parse(_ text: String) -> [Rule] {
        text.split(separator: ";").compactMap { item in
            let kv = item.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { return nil }
            let lhs = kv[0].split(separator: ":", maxSplits: 1)
            var spec = Substring(kv[1])
            var count = 1, after = 0
            if let x = spec.lastIndex(of: "x") { count = Int(spec[spec.index(after: x)...]) ?? 1; spec = spec[..<x] }
            if let a = spec.lastIndex(of: "@") { after = Int(spec[spec.index(after: a)...]) ?? 0; spec = spec[..<a] }
            guard let e = errnoNames[String(spec)] else { return nil }
            return Rule(site: String(lhs[0]), target: lhs.count > 1 ? String(lhs[1]) : nil, error: e, after: after, count: count)
        }
    }

    /// The error of the first rule for this call that fails it; each rule up to that one counts the call.
    static func match(_ rules: inout [Rule], _ site: String, _ target: String?) -> Int32? {
        for i in rules.indices where rules[i].site == site && (rules[i].target == nil || rules[i].target == target) {
            rules[i].calls += 1
            let n = rules[i].calls - rules[i].after
            if n >= 1 && (rules[i].count == 0 || n <= rules[i].count) {
                rules[i].injected += 1
                return rules[i].error
            }
        }
        return nil
    }

    /// Rules set by a test for the calls made inside `inject`'s body.
    public final class Scope: Sendable {
        let rules: Mutex<[Rule]>
        init(_ rules: [Rule]) { self.rules = Mutex(rules) }

        /// How many calls the scope's rules have failed so far (an `EINTR` counts once per retry).
        public var injected: Int { rules.withLock { $0.reduce(0) { $0 + $1.injected } } }
    }

    @TaskLocal static var scope: Scope?

    /// Runs `body` with `rules` (the grammar above) in force for the calls it makes on this task,
    /// before and besides `WAKE_TEST_FAULTS`. A rule that does not parse fails nothing, and the
    /// test that wrote it sees `injected` stay 0 (never a trap: this module ships).
    public static func inject<T>(_ rules: String, _ body: (Scope) throws -> T) rethrows -> T {
        let fresh = Scope(parse(rules))
        return try $scope.withValue(fresh) { try body(fresh) }
    }
    #endif

    /// The errno a call at `site` should fail with now, if a rule says so (always nil in release builds).
    public static func fault(_ site: String, target: String? = nil) -> Int32? {
        #if DEBUG
        if let scope, let e = scope.rules.withLock({ match(&$0, site, target) }) { return e }
        return rules.withLock { $0.isEmpty ? nil : match(&$0, site, target) }
        #else
        return nil
        #endif
    }

    /// Whether the next call at `site` would fail, without counting it as a call: for a path
    /// that stands in front of the site (wake's own sound-server stream before `pcm.open`) and
    /// must leave the fault to the call it was written for.
    public static func wouldFault(_ site: String, target: String? = nil) -> Bool {
        #if DEBUG
        if let scope {
            var copy = scope.rules.withLock { $0 }
            if match(&copy, site, target) != nil { return true }
        }
        var copy = rules.withLock { $0 }
        return !copy.isEmpty && match(&copy, site, target) != nil
        #else
        return false
        #endif
    }

    /// `body` as a thread started now runs it: under the starting task's rules (debug builds).
    /// A thread inherits no task-local value, and a worker's calls are part of what a test of
    /// the thing that started it means to fail.
    static func carried(_ body: @escaping () -> Void) -> () -> Void {
        #if DEBUG
        guard let scope else { return body }
        return { $scope.withValue(scope) { body() } }
        #else
        return body
        #endif
    }

    /// The fault for a call through the `syscall()` funnel named `name` ("open(/x)" is `open`).
    static func systemCallFault(_ name: String) -> Int32? {
        #if DEBUG
        let call = name.firstIndex(of: "(").map { String(name[..<$0]) } ?? name
        if let e = fault("syscall", target: call), e != hang { return e }
        #endif
        return nil
    }
}
