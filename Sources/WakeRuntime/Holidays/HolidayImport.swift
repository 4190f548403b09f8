import WakeCore
import WakeSystem

/// `wake holidays import COUNTRY[-REGION]` and `wake holidays list`: a country's public holidays
/// from Debian's python3-holidays, written as the iCalendar file `--skip-days` reads. The place
/// is checked before Python runs (`HolidayRegion`); Python's answer is data, read line by line,
/// and what it says reaches the terminal escaped. The file is made by `HolidayCalendarWriter`
/// and read back by `HolidayCalendar` before anyone is told to use it.
public enum HolidayImport {
    public struct Request: Sendable {
        /// COUNTRY[-REGION] as given.
        public var place: String
        public var years: Int
        /// nil: `<config home>/wake/holidays-<place>.ics`; "-": standard output.
        public var output: String?

        public init(place: String, years: Int = HolidayImport.defaultYears, output: String? = nil) {
            self.place = place
            self.years = years
            self.output = output
        }
    }

    /// This year and the next two: an alarm set today keeps skipping holidays for a while
    /// without a new import each January.
    public static let defaultYears = 3
    /// python3-holidays computes any year, but the further ahead the likelier a law changes a
    /// date (a holiday added, moved or dropped): refresh the file rather than import decades.
    public static let yearRange = 1...20
    /// Python and the module start in about 0.15 s here; a loaded machine gets ample room.
    static let timeout: Duration = .seconds(15)

    static let install = "install it with 'apt install python3-holidays', or export the holidays from any calendar program as an .ics file (all-day events work the same)"

    public static func run(_ request: Request, console: Console) throws(WakeFailure) -> CommandResult {
        let place: HolidayRegion
        do { place = try HolidayRegion.parse(request.place) } catch {
            throw WakeFailure(.usage, "\(error); 'wake holidays list' shows the codes")
        }
        guard yearRange.contains(request.years) else {
            throw WakeFailure(.usage, "--years: \(request.years) is not \(yearRange.lowerBound) to \(yearRange.upperBound) years; give how many years, this one first")
        }
        let path: String?
        if request.output == "-" {
            path = nil
        } else if let given = request.output {
            path = given
        } else {
            guard let directory = XDGPaths.wakeConfigDirectory else {
                throw WakeFailure(.cantCreate, "cannot find where to write the calendar: neither XDG_CONFIG_HOME nor HOME is set to an absolute path; give -o FILE")
            }
            path = directory + "/" + place.fileName
        }

        let (zone, warning) = ZoneLoader.local()
        if let warning { console.error("warning: " + warning) }
        let now = SystemClock.realtime
        let first = zone.localTime(at: now).date.year
        let years = Array(first..<(first + request.years))
        let days = try holidays(of: place, years: years)

        let title = "Holidays \(place) (python3-holidays)"
        let text = HolidayCalendarWriter.text(days, title: title, source: place.description.lowercased(), stamp: now)
        // Read back before anything is replaced: a file `--skip-days` would refuse is never written.
        let count: Int
        do {
            count = try HolidayCalendar.parse(text, zone: .utc).events.count
        } catch {
            throw WakeFailure(.cantCreate, "the calendar made for \(place) does not read back (\(error)); nothing was written; please report this")
        }
        let span = years.count == 1 ? "\(first)" : "\(first)-\(first + years.count - 1)"
        let what = "\(count) holiday\(count == 1 ? "" : "s") (\(span)) of \(place)"
        guard let path else {
            console.file(text)
            console.info("wrote \(what) to standard output")
            return .done
        }
        try write(text, to: path, defaultPath: request.output == nil)
        let shown = tildeForm(path)
        console.info("wrote \(what) to \(shown)")
        console.info("use it with 'wake add 06:30 --days weekdays --skip-days \(shellWord(shown))'")
        return .done
    }

    public static func list(console: Console) throws(WakeFailure) -> CommandResult {
        let answer = try ask(["list"], about: "the countries")
        guard answer.status == 0 else { throw failed(answer.status, doing: "listing the countries") }
        var rows: [String] = []
        for line in answer.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, let country = try? HolidayRegion.parse(fields[0]), country.region == nil else { continue }
            let regions = importable(fields[1], of: country)
            let name = fields[2].isEmpty ? "" : "  " + fields[2]
            rows.append(country.country.padding(to: 4) + name + (regions.isEmpty ? "" : ": " + regions.joined(separator: " ")))
        }
        guard !rows.isEmpty else { throw WakeFailure(.unavailable, "python3-holidays listed no country; reinstall it ('apt install --reinstall python3-holidays')") }
        console.results(rows + ["import one with 'wake holidays import COUNTRY' or 'wake holidays import COUNTRY-REGION' (DE-BY)"])
        return .done
    }

    // MARK: Python

    /// The holidays python3-holidays gives `place` in `years`, or why not.
    static func holidays(of place: HolidayRegion, years: [Int]) throws(WakeFailure) -> [HolidayCalendarWriter.Day] {
        let answer = try ask(["import", place.country, place.region ?? ""] + years.map(String.init), about: place.description)
        switch answer.status {
        case 0: break
        case HolidaysProgram.unknownCountry:
            throw WakeFailure(.usage, "python3-holidays knows no country '\(place.country)'; 'wake holidays list' shows the codes it knows")
        case HolidaysProgram.unknownRegion:
            let regions = importable(answer.stdout.split(separator: "\n").first.map(String.init) ?? "", of: place)
            guard !regions.isEmpty else {
                throw WakeFailure(.usage, "python3-holidays has no regions of \(place.country): import '\(place.country)' alone")
            }
            throw WakeFailure(.usage, "python3-holidays knows no region '\(place.region ?? "")' of \(place.country); its regions: \(regions.joined(separator: " "))")
        default:
            throw failed(answer.status, doing: "importing \(place)")
        }
        var days: [HolidayCalendarWriter.Day] = []
        for line in answer.stdout.split(separator: "\n") {
            guard let day = day(line) else {
                throw WakeFailure(.unavailable, "python3-holidays answered a line wake cannot read: '\(TerminalText.printable(String(line)))'; reinstall it ('apt install --reinstall python3-holidays')")
            }
            days.append(day)
        }
        return days
    }

    /// Runs the program with `arguments`; not being able to start Python at all is the module
    /// missing too (no /usr/bin/python3: python3-holidays would bring it).
    static func ask(_ arguments: [String], about: String) throws(WakeFailure) -> ChildProcess.Output {
        let python = DebianPython.path
        // -I: PYTHONPATH, PYTHONSTARTUP and the user's site-packages cannot change what runs.
        switch ChildProcess.run([python, "-I", "-c", HolidaysProgram.text] + arguments, timeout: timeout) {
        case .failure(let error):
            throw WakeFailure(.unavailable, "python3-holidays is not installed (cannot run \(TerminalText.printable(python)): \(error.reason)); \(install)")
        case .success(let output):
            if output.status == HolidaysProgram.moduleMissing {
                throw WakeFailure(.unavailable, "python3-holidays is not installed (\(TerminalText.printable(python)) has no module 'holidays'); \(install)")
            }
            return output
        }
    }

    static func failed(_ status: Int32?, doing what: String) -> WakeFailure {
        guard let status else {
            return WakeFailure(.unavailable, "python3-holidays did not answer within \(timeout.components.seconds) s while \(what); try again, or export the holidays from any calendar program as an .ics file")
        }
        return WakeFailure(.unavailable, "python3-holidays failed while \(what) (exit status \(status)); reinstall it ('apt install --reinstall python3-holidays'), or export the holidays from any calendar program as an .ics file")
    }

    /// `2026-12-25\tErster Weihnachtstag`
    static func day(_ line: Substring) -> HolidayCalendarWriter.Day? {
        let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
        guard fields.count == 2 else { return nil }
        let parts = fields[0].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, [4, 2, 2] == parts.map(\.count), parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        let date = CivilDate(year: y, month: m, day: d)
        return date.isValid ? HolidayCalendarWriter.Day(date: date, name: String(fields[1])) : nil
    }

    /// The regions of `list` (comma-separated) that `wake holidays import` can be given, sorted:
    /// python3-holidays has a few that are names with spaces, which no code names.
    static func importable(_ list: String, of place: HolidayRegion) -> [String] {
        let codes = list.split(separator: ",").compactMap { try? HolidayRegion.parse(place.country + "-" + $0).region }
        return Array(Set(codes)).sorted()
    }

    // MARK: The file

    /// Written atomically, 0644: a list of public holidays is no secret, and a calendar program
    /// may read it. The default directory is wake's own, made and checked as for the alarms.
    static func write(_ text: String, to path: String, defaultPath: Bool) throws(WakeFailure) {
        if defaultPath {
            do { try AlarmStore.ensureDirectory(AtomicFile.split(path).directory) } catch { throw WakeFailure(store: error) }
        }
        do {
            try AtomicFile.write(text, to: path, mode: 0o644)
        } catch {
            throw WakeFailure(.cantCreate, "cannot write '\(TerminalText.printable(path))': \(error); give another with -o FILE")
        }
        let back: String?
        do { back = try AtomicFile.read(path) } catch {
            throw WakeFailure(.cantCreate, "cannot read back '\(TerminalText.printable(path))': \(error.reason)")
        }
        guard back == text else {
            throw WakeFailure(.cantCreate, "'\(TerminalText.printable(path))' does not hold what was written (another program changed it?); run the import again")
        }
    }

    /// `~/.config/wake/holidays-de-by.ics` for a path under HOME.
    static func tildeForm(_ path: String) -> String {
        guard let home = XDGPaths.home, home != "/", path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    /// `path` as one word for a shell: as it is when nothing in it is special to one (a leading
    /// `~` expands), else single-quoted, the home spelled out.
    static func shellWord(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || "/._-+@%=:,~".unicodeScalars.contains($0) }
        if plain && !path.dropFirst().contains("~") { return path }
        var full = path
        if path.hasPrefix("~/"), let home = XDGPaths.home { full = home + path.dropFirst() }
        return "'" + full.replacingAll("'", with: "'\\''") + "'"
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
