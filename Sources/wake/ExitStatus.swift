/// Exit codes, as the README documents them (sysexits.h where one fits).
enum ExitStatus {
    static let ok: Int32 = 0
    static let noSound: Int32 = 1
    static let missed: Int32 = 3
    static let timedOut: Int32 = 4
    static let usage: Int32 = 64  // EX_USAGE
    static let noInput: Int32 = 66  // EX_NOINPUT: the sound file is unusable
    static let unavailable: Int32 = 69  // EX_UNAVAILABLE: device or service
    static let cantCreate: Int32 = 73  // EX_CANTCREAT: the event log cannot be written
    static let noPermission: Int32 = 77  // EX_NOPERM
}

/// An error that ends wake before the alarm is armed: one line, and its exit code.
struct ArmError: Error {
    var message: String
    var status: Int32
}
