import WakeCore
import WakeSystem

extension StandingAlarmActions {
    /// `wake remove NAME`: the alarm and its history, under the file's lock.
    public static func remove(name: String, console: Console, in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let context = try StandingContext.given(context)
        let store = context.store
        do {
            let removed = try store.update { alarms -> Bool in
                let before = alarms.count
                alarms.removeAll { $0.name == name }
                return alarms.count < before
            }
            guard removed else { throw unknown(name) }
            try store.updateHistory { history in history[name] = nil }
        } catch let error as WakeFailure {
            throw error
        } catch let error as StoreError {
            throw storeError(error)
        } catch {
            throw WakeFailure(.cantCreate, "\(error)")
        }
        console.info("removed '\(name)'")
        return .done
    }
}
