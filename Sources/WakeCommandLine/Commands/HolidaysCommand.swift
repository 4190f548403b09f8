import ArgumentParser
import WakeRuntime

/// `wake holidays import|list`: calendars of public holidays for `--skip-days`, from Debian's
/// python3-holidays. WakeMain picks the subcommand by the second word, as it does the first.
struct HolidaysCommand: ParsableCommand {
    // The super-command name makes the help's usage read `wake holidays ...` when WakeMain
    // parses this group alone (in the completion tree the root names it anyway).
    static let configuration = CommandConfiguration(
        commandName: "holidays", _superCommandName: "wake",
        abstract: "Write a calendar of a country's public holidays, for alarms that skip them.",
        discussion: """
            Uses Debian's python3-holidays ('apt install python3-holidays'). A calendar exported from any calendar \
            program as an .ics file with all-day events works the same.
            """,
        subcommands: [HolidaysImportCommand.self, HolidaysListCommand.self])
}

/// `wake holidays import COUNTRY[-REGION] [--years N] [-o FILE]`
struct HolidaysImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", _superCommandName: "wake holidays",
        abstract: "Write the public holidays of a country (or one of its regions) as an iCalendar file.",
        discussion: """
            COUNTRY is a country's code (DE, US, FRA), REGION one of its regions' (DE-BY, US-CA), as 'wake holidays \
            list' shows them. The file has one all-day event per holiday from this year on, and is read back before \
            it is reported written; by default it is ~/.config/wake/holidays-<country>[-<region>].ics (under \
            XDG_CONFIG_HOME when set), replaced when it exists. Use it with 'wake add ... --skip-days FILE'.

            Exit status: 0 written; 64 usage error or a country or region python3-holidays does not know; 69 \
            python3-holidays is not installed or failed; 73 the file cannot be written.
            """)

    @Argument(help: ArgumentHelp("The country's code, and a region's after '-' (DE, DE-BY).", valueName: "country[-region]"))
    var place: String

    @Option(help: ArgumentHelp("How many years, this one first: 1 to \(HolidayImport.yearRange.upperBound).", valueName: "n"))
    var years: Int = HolidayImport.defaultYears

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write it ('-': standard output).", valueName: "file"),
            completion: .file(extensions: ["ics"]))
    var output: String?
}

/// `wake holidays list`
struct HolidaysListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", _superCommandName: "wake holidays",
        abstract: "List the countries and regions python3-holidays knows, by code.",
        discussion: "Exit status: 0 listed; 69 python3-holidays is not installed or failed.")
}
