import WakeSystem

/// Whether the "never sleep" lock is held for this alarm.
public enum InhibitorState {
    static let what = "sleep:idle"

    case held(SleepInhibitor)
    case failed(String)
    case off

    func release() { if case .held(let i) = self { i.release() } }
}
