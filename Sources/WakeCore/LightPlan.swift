/// `--light` (issue 56): the screen's backlight as part of the alarm. `sunrise:20m` raises it
/// from its lowest lit level to its highest over the last 20 minutes before the ring (and holds
/// it there while it rings); `flash` pulses it, a second lit and a second low, while it rings;
/// both together as `sunrise:20m,flash`. Pure: the words and the curve; the runner times the
/// steps and the output sets the device.
public struct LightPlan: Hashable, Sendable {
    /// How long before the ring the sunrise starts; nil: none.
    public var sunrise: Duration?
    public var flash: Bool

    /// `sunrise` alone: Sleep as Android's and the dawn lamps' usual span.
    public static let defaultSunrise: Duration = .seconds(20 * 60)
    public static let shortestSunrise: Duration = .seconds(60)
    /// A longer one is more likely a slip (`90h` for `90m`) than a dawn.
    public static let longestSunrise: Duration = .seconds(2 * 3600)
    /// A flash's half period: one change a second, far below the three a second that photosensitive
    /// epilepsy guidance (WCAG 2.3.1) warns of.
    public static let flashHalfPeriod: Duration = .seconds(1)
    /// The word for none, which a command line gives to undo config.toml's.
    public static let off = "off"

    public init(sunrise: Duration? = nil, flash: Bool = false) {
        self.sunrise = sunrise
        self.flash = flash
    }

    public struct Problem: Error, Equatable, Sendable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `off`, `sunrise`, `sunrise:SPAN`, `flash`, or a sunrise and `flash` joined by a comma;
    /// nil for `off`.
    public static func parse(_ text: String) -> Result<LightPlan?, Problem> {
        if text == off { return .success(nil) }
        var plan = LightPlan()
        var seen: Set<String> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let word = part.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            guard seen.insert(word).inserted else { return .failure(Problem("'\(word.printable)' is given twice; give it once")) }
            switch word {
            case "flash" where part == "flash":
                plan.flash = true
            case "sunrise":
                let span = part == "sunrise" ? "" : String(part.dropFirst("sunrise:".count))
                if part != "sunrise" && span.isEmpty { return .failure(Problem("'sunrise:' needs a span, as sunrise:20m")) }
                switch sunriseSpan(span.isEmpty ? nil : span) {
                case .success(let d): plan.sunrise = d
                case .failure(let p): return .failure(p)
                }
            default:
                return .failure(Problem("invalid light '\(part.printable)'; use sunrise, sunrise:SPAN (as sunrise:20m), flash, "
                                        + "sunrise:SPAN,flash or off"))
            }
        }
        return .success(plan)
    }

    private static func sunriseSpan(_ text: String?) -> Result<Duration, Problem> {
        guard let text else { return .success(defaultSunrise) }
        let d: Duration
        do { d = try DurationText.parse(text) } catch { return .failure(Problem("sunrise: \(error.description)")) }
        guard d >= shortestSunrise else {
            return .failure(Problem("a sunrise of \(text.printable) is shorter than a minute; give 1m or more"))
        }
        guard d <= longestSunrise else {
            let most = DurationText.format(longestSunrise)
            return .failure(Problem("a sunrise of \(text.printable) is longer than \(most); give \(most) or less"))
        }
        return .success(d)
    }

    /// The plan in the words `parse` takes.
    public var text: String {
        let parts = [sunrise.map { "sunrise:" + DurationText.format($0) }, flash ? "flash" : nil].compactMap { $0 }
        return parts.isEmpty ? Self.off : parts.joined(separator: ",")
    }

    // MARK: the sunrise's curve

    /// How far the sunrise has come `remaining` before the ring: 0 at its start, 1 at the ring;
    /// nil before it starts (or with no sunrise).
    public func sunriseShare(remaining: Duration) -> Double? {
        guard let sunrise, remaining <= sunrise else { return nil }
        guard remaining > .zero else { return 1 }
        return 1 - remaining / sunrise
    }

    /// How often the sunrise steps: two hundred steps, none closer than a second.
    public var sunriseStep: Duration { max(.seconds(1), (sunrise ?? .zero) / 200) }

    /// The device's level for `share` of the way from `lowest` to `highest`. Squared, because
    /// the eye's sense of brightness grows far slower than the light: an even ramp of the raw
    /// value would look bright within minutes and then hardly change.
    public static func level(share: Double, lowest: Int, highest: Int) -> Int {
        let s = min(1, max(0, share))
        guard highest > lowest else { return highest }
        return lowest + Int((Double(highest - lowest) * s * s).rounded())
    }

    /// The lowest level a sunrise starts from and a flash falls to: a hundredth of the range,
    /// at least 1, since 0 turns some panels' backlight off altogether.
    public static func lowest(highest: Int) -> Int { min(highest, max(1, highest / 100)) }
}
