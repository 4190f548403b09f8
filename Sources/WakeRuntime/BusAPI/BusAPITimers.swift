import WakeCore
import WakeSystem

/// The API's timers: `AddTimer(s span, s name, a{sv} options)`, `wake timer SPAN NAME` with Add's
/// ring options and `repeat` (a boolean); an empty name makes one (`timer`, `timer-2` ...).
extension BusAPIOptions {
    static func timerRequest(span text: String, name: String,
                             options: BusAPIOptions) throws(WakeFailure) -> StandingAlarmActions.AddRequest {
        var o = options
        let repeats = try o.takeFlag("repeat")
        for key in ["days", "name", AlarmOption.skipDays.name] {
            guard !(try o.texts(key)).isEmpty else { continue }
            throw WakeFailure(.usage, "AddTimer: option '\(key)' is not a timer's; the name is the second argument")
        }
        let span = try StandingAlarmActions.timerSpan(text, what: "AddTimer: span")
        var request = try addRequest(when: "+" + DurationText.format(span), options: o)
        request.name = name.isEmpty ? nil : name
        request.timer = StandingTimer(span: span, repeats: repeats)
        return request
    }
}

extension BusAPI {
    /// An alarm object's `TimerSpan` and `TimerHeld`, in microseconds.
    static func timerMicroseconds(_ a: StandingAlarm) -> (UInt64, UInt64) {
        func µs(_ d: Duration?) -> UInt64 { UInt64(clamping: max(0, (d ?? .zero).milliseconds) * 1000) }
        return (µs(a.timer?.span), µs(a.timer?.remaining))
    }
}
