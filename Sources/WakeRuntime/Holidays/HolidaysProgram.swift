/// The Python program `wake holidays` runs with Debian's python3-holidays (`DebianPython`), as
/// `python3 -I -c TEXT list` or `... import COUNTRY REGION YEAR...` (REGION "" for none): the
/// place and the years arrive as arguments, never in the program's text. It answers on stdout,
/// one tab-separated line per item, in UTF-8 whatever the locale; its stderr goes nowhere.
///
/// Exit status: 0 answered; 10 no module `holidays`; 11 no such country; 12 no such region (the
/// country's regions on stdout, comma-separated). Anything else (a traceback: exit 1) is a
/// python3-holidays that failed.
///
/// It reads python3-holidays as Debian 12 ships it (0.10: `CountryHoliday` with `prov=` or
/// `state=`, `list_supported_countries()` a list of class names) and as later versions do
/// (`country_holidays(subdiv=)`, a dictionary of codes and their regions), so an upgrade does
/// not break the import.
enum HolidaysProgram {
    static let moduleMissing: Int32 = 10
    static let unknownCountry: Int32 = 11
    static let unknownRegion: Int32 = 12

    static let text = #"""
import re
import sys


def write(line):
    sys.stdout.buffer.write(line.encode("utf-8", "replace") + b"\n")


def one_line(text):
    return " ".join(str(text).split())


try:
    import holidays
except ImportError:
    sys.exit(10)


def countries():
    found = holidays.list_supported_countries()
    if isinstance(found, dict):
        return {code: [str(r) for r in regions] for code, regions in found.items()}
    table = {}
    for name in found:
        if name.isupper() and 2 <= len(name) <= 3:
            cls = getattr(holidays, name, None)
            table[name] = [str(r) for r in list(getattr(cls, "PROVINCES", [])) + list(getattr(cls, "STATES", []))]
    return table


def country_name(code):
    cls = getattr(holidays, code, None)
    if cls is None:
        return ""
    name = cls.__name__
    if name == code:
        bases = [b.__name__ for b in cls.__mro__[1:2] if b.__name__ not in ("HolidayBase", "dict", "object")]
        name = bases[0] if bases else ""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name)


def holiday_days(country, region, years):
    table = countries()
    if country not in table:
        sys.exit(11)
    if region:
        matches = [r for r in table[country] if r.upper() == region.upper()]
        if not matches:
            write(",".join(table[country]))
            sys.exit(12)
        region = matches[0]
    if hasattr(holidays, "country_holidays"):
        return holidays.country_holidays(country, subdiv=region or None, years=years)
    options = {}
    if region:
        cls = getattr(holidays, country)
        options = {"state": region} if region in getattr(cls, "STATES", []) else {"prov": region}
    return holidays.CountryHoliday(country, years=years, **options)


if sys.argv[1] == "list":
    for code, regions in sorted(countries().items()):
        write(code + "\t" + ",".join(regions) + "\t" + one_line(country_name(code)))
elif sys.argv[1] == "import":
    years = [int(y) for y in sys.argv[4:]]
    for day, name in sorted(holiday_days(sys.argv[2], sys.argv[3], years).items()):
        if day.year in years:
            write(day.isoformat() + "\t" + one_line(name))
else:
    sys.exit(2)
"""#
}
