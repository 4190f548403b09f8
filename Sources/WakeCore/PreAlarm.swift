/// `--pre-alarm LEAD[,PERCENT]`: that long before the alarm, ring quietly (PERCENT of the alarm's
/// own volume) until the alarm itself rings. The alarm's engine rings it (`AlarmEngine.State.preRinging`):
/// it is not a second alarm, so it never replaces or delays the main ring.
public struct PreAlarm: Hashable, Sendable {
    /// How long before the alarm the pre-ring starts.
    public var lead: Duration
    /// The pre-ring's volume, in percent of the alarm's own (1 to 100).
    public var percent: Int

    public static let defaultPercent = 20
    public static let longest: Duration = .seconds(2 * 3600)

    public init(lead: Duration, percent: Int = PreAlarm.defaultPercent) { self.lead = lead; self.percent = percent }

    /// The pre-ring's volume for an alarm at `volume` percent: never below 1 (never silent).
    public func volume(of volume: Int) -> Int {
        let v = min(100, max(1, volume))
        return max(1, (v * min(100, max(1, percent)) + 50) / 100)
    }

    /// `10m`, `10m,25`, `10m,25%`; `0` (or `0,25`) for none (nil). The one line on failure
    /// follows the option's name.
    public static func parse(_ text: String) -> Result<PreAlarm?, ParseError> {
        let parts = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        let leadText = String(parts.first ?? "")
        let lead: Duration
        do { lead = try DurationText.parse(leadText) } catch { return .failure(ParseError(reason: error.description)) }
        var percent = defaultPercent
        if parts.count > 1 {
            var p = Substring(parts[1])
            if p.hasSuffix("%") { p = p.dropLast() }
            guard !p.isEmpty, p.count <= 3, p.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(p), (1...100).contains(n) else {
                return .failure(ParseError(reason: "invalid volume '\(TerminalText.printable(String(parts[1]), limit: 40))'; give a percent of the alarm's volume from 1 to 100, as 10m,25"))
            }
            percent = n
        }
        if lead == .zero { return .success(nil) }
        guard lead >= .seconds(1) else {
            return .failure(ParseError(reason: "\(TerminalText.printable(leadText, limit: 40)) is shorter than a second; give 1s or more, or 0 for none"))
        }
        guard lead <= longest else {
            return .failure(ParseError(reason: "\(TerminalText.printable(leadText, limit: 40)) is longer than 2h; give 2h or less, or 0 for none"))
        }
        return .success(PreAlarm(lead: lead, percent: percent))
    }

    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }
}
