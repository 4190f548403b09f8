/// `wake sleep 30m` (issue 56): a sound played now, looped and gentle, that fades away over its
/// last minute; then, with `--then suspend` or `--then off`, the machine sleeps or powers off,
/// but only when that silences no alarm. Pure: the span and the rule; the command plays it
/// through the alarm's own sound path and asks logind.
public struct SleepTimer: Hashable, Sendable {
    /// What comes after the sound: nothing, a suspend, or a power-off.
    public enum After: String, CaseIterable, Sendable {
        case stay, suspend, off
    }

    public var span: Duration
    public var then: After

    /// A night's sound is gentle: 30 % of full scale unless `--volume` says otherwise.
    public static let defaultVolume = 30
    public static let longest: Duration = .seconds(12 * 3600)

    /// Why a value given is not one: one line, with what to give instead.
    public struct Problem: Error, Equatable, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }

    public init(span: Duration, then: After = .stay) {
        self.span = span
        self.then = then
    }

    /// The sound rises at its start over 5 s, or a quarter of a shorter span.
    public var fadeIn: Duration { min(.seconds(5), span / 4) }
    /// The fade to silence: the last minute, or the last half of a span shorter than two.
    public var fade: Duration { min(.seconds(60), span / 2) }
    public var fadeOut: FadeOut { FadeOut(after: span - fade, over: fade) }

    /// SPAN as given (`30m`, `1h30m`), or why it cannot be one: one line, with what to give.
    public static func span(_ text: String) -> Result<Duration, Problem> {
        let d: Duration
        do { d = try DurationText.parse(text) } catch { return .failure(Problem("\(error.description)")) }
        guard d >= .seconds(1) else {
            return .failure(Problem(localized("'{span}' is no time to play; give a span of a second or more, as 30m", text.printable)))
        }
        guard d <= longest else {
            let most = DurationText.format(longest)
            return .failure(Problem(localized("'{span}' is longer than {most}; give {most} or less", text.printable, most, most)))
        }
        return .success(d)
    }

    /// `--then`'s word, or why it is not one.
    public static func after(_ text: String) -> Result<After, Problem> {
        guard let a = After(rawValue: text) else {
            return .failure(Problem(localized("--then: invalid choice '{word}'; use stay, suspend or off", text.printable)))
        }
        return .success(a)
    }

    /// The next alarm to ring, as the sleep timer weighs it: its title ("06:30 (work)") and
    /// whether the RTC will wake a suspended machine for it.
    public struct NextAlarm: Hashable, Sendable {
        public var title: String
        public var wakesMachine: Bool
        public init(title: String, wakesMachine: Bool) { self.title = title; self.wakesMachine = wakesMachine }
    }

    /// Why `then` must not happen with `next` to come, or nil when it may: a suspend only when the
    /// RTC wakes the machine for the next alarm (or there is none), a power-off only with no
    /// alarm at all (nothing wakes a machine that is off: the RTC's alarm timers end with it).
    public static func refusal(_ then: After, next: NextAlarm?) -> String? {
        guard let next else { return nil }
        switch then {
        case .stay: return nil
        case .suspend:
            return next.wakesMachine ? nil
                : localized("no RTC wake-up for the next alarm: a suspend would silence {alarm}; staying awake", next.title.printable)
        case .off:
            return localized("a machine that is off rings nothing: powering off would silence {alarm}; staying on", next.title.printable)
        }
    }
}
