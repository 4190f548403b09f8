/// The place `wake holidays import` is asked for: a country's code and, after a `-`, one of its
/// regions' (`DE`, `DE-BY`, `us-ca`). Checked before anything runs with it: it reaches
/// python3-holidays as an argument and names a file, so only a few letters and digits pass.
public struct HolidayRegion: Equatable, Sendable, CustomStringConvertible {
    /// Upper-case letters: `DE`, `FRA`.
    public var country: String
    /// Upper-case letters and digits (`BY`, `NSW`, `CESENA`); python3-holidays' own spelling is
    /// matched without regard to case.
    public var region: String?

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// python3-holidays' codes: ISO 3166 countries (2 or 3 letters, as `ECB` and `FRA`) and the
    /// regions under them (`BY`, `NSW`, and a few Italian cities' names, the longest `Urbino`).
    static let countryLetters = 2...3
    static let regionCharacters = 1...6

    public init(country: String, region: String? = nil) {
        self.country = country
        self.region = region
    }

    public static func parse(_ text: String) throws(ParseError) -> HolidayRegion {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let country = parts.first.map(String.init) ?? ""
        guard countryLetters.contains(country.count), country.unicodeScalars.allSatisfy(isASCIILetter) else {
            throw ParseError(description: "'\(TerminalText.printable(text))' is not a country code: give its 2 or 3 letters, and a region's after '-' (DE, DE-BY, US-CA)")
        }
        guard parts.count == 2 else { return HolidayRegion(country: country.uppercased()) }
        let region = String(parts[1])
        guard regionCharacters.contains(region.count), region.unicodeScalars.allSatisfy({ isASCIILetter($0) || ("0"..."9").contains($0) }) else {
            throw ParseError(description: "'\(TerminalText.printable(region))' is not a region code: give 1 to 6 letters or digits after the country's and '-' (DE-BY, US-CA)")
        }
        return HolidayRegion(country: country.uppercased(), region: region.uppercased())
    }

    static func isASCIILetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }

    /// `DE-BY`
    public var description: String { region.map { "\(country)-\($0)" } ?? country }

    /// `holidays-de-by.ics`: one file per place, so importing another does not replace it.
    public var fileName: String { "holidays-\(description.lowercased()).ics" }
}
