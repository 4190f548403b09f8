import Synchronization
import WakeCore
import WakeSystem

/// The real `LightOutput`: the preferred backlight (`Backlight.preferred`), set through the
/// seat's logind session (`SessionBrightness`) on a worker thread of its own, since each call
/// waits on the system bus. Only the latest wish is carried out: a sunrise's steps never queue
/// up behind a slow bus. The level found at the first `show` is saved (`LightStateStore`)
/// before anything changes, so a wake killed mid-ring is put right by the next one to start.
public final class ScreenLight: LightOutput {
    public var onProblem: ((String) -> Void)?
    private let shared: Shared
    private var registration: Reactor.Registration?
    private let reactor: Reactor

    public init(reactor: Reactor, stateDirectory: String? = MixerStateStore.directory()) throws(SystemCallError) {
        self.reactor = reactor
        shared = try Shared(stateDirectory: stateDirectory)
        registration = reactor.register(fd: shared.problems.signal.fd) { [unowned self] _ in
            for line in shared.problems.take() { onProblem?(line) }
        }
    }

    deinit {
        if let registration { reactor.unregister(registration) }
    }

    public func show(_ share: Double) { shared.ask(.show(share)) }
    public func restore() { shared.ask(.restore) }

    public func settle(within limit: Duration) {
        let end = ContinuousClock.now + limit
        while !shared.isIdle, ContinuousClock.now < end { SystemClock.sleep(for: .milliseconds(10)) }
    }

    enum Wish: Equatable, Sendable {
        case show(Double), restore
    }

    /// What the loop and the worker share: the latest wish, and the eventfd the worker waits on.
    final class Shared: Sendable {
        /// `failed`: no worker could be started; wishes are then dropped, and the alarm rings unlit.
        private let state = Mutex<(wish: Wish?, busy: Bool, started: Bool, failed: Bool)>((nil, false, false, false))
        private let wakeUp: EventSignal
        let problems: PostBox<String>
        private let stateDirectory: String?

        init(stateDirectory: String?) throws(SystemCallError) {
            problems = try PostBox<String>()
            wakeUp = try EventSignal()
            self.stateDirectory = stateDirectory
        }

        var isIdle: Bool { state.withLock { $0.wish == nil && !$0.busy } }

        func ask(_ wish: Wish) {
            let start = state.withLock { s -> Bool in
                guard !s.failed else { return false }
                s.wish = wish
                defer { s.started = true }
                return !s.started
            }
            if start {
                do { try DetachedThread.start { [self] in work() } } catch {
                    state.withLock { s in
                        s.wish = nil
                        s.failed = true
                    }
                    problems.post("the screen's light cannot be set: \(error); the alarm rings without it")
                    return
                }
            }
            _ = wakeUp.signal()
        }

        private func work() {
            var lit = LitDevice(stateDirectory: stateDirectory) { [problems] in problems.post($0) }
            while true {
                // A poll that fails (it should not) waits a second rather than spin.
                if (try? Poll.waitReadable(wakeUp.fd, within: nil)) == nil { SystemClock.sleep(for: .seconds(1)) }
                wakeUp.drain()
                let wish = state.withLock { s -> Wish? in
                    defer { s.wish = nil }
                    s.busy = s.wish != nil
                    return s.wish
                }
                switch wish {
                case .show(let share): lit.show(share)
                case .restore: lit.restore()
                case nil: continue
                }
                state.withLock { $0.busy = false }
            }
        }
    }
}

/// The worker's own: the device lit, the session it is set through, and the level to put back.
struct LitDevice {
    let stateDirectory: String?
    let say: (String) -> Void
    private var device: Backlight?
    private var session: String?
    private var saved: Int?
    private var lastSet: Int?
    /// What was said already, so a sunrise's two hundred steps say a problem once.
    private var said: Set<String> = []

    init(stateDirectory: String?, say: @escaping (String) -> Void) {
        self.stateDirectory = stateDirectory
        self.say = say
    }

    private var savePath: String? { stateDirectory.map { LightStateStore.path(in: $0, pid: CurrentProcess.id) } }

    private mutating func tell(_ line: String) {
        if said.insert(line).inserted { say(line) }
    }

    mutating func show(_ share: Double) {
        if device == nil {
            guard let found = Backlight.preferred() else {
                return tell("no backlight under \(Backlight.directory) (an external monitor has none wake can set); "
                            + "the alarm rings without light")
            }
            guard let level = found.brightness() else {
                return tell("cannot read the backlight '\(found.name.printable)'s level; the alarm rings without light")
            }
            device = found
            saved = level
            if let savePath {
                let file = LightSaveFile(owner: MixerStateStore.currentOwner(), device: found.name, saved: level, highest: found.highest)
                do { try LightStateStore.write(file, to: savePath) } catch {
                    tell("cannot save the backlight's level (\(error)); should wake die while it is lit, set it back by hand")
                }
            }
        }
        guard let device else { return }
        let level = LightPlan.level(share: share, lowest: LightPlan.lowest(highest: device.highest), highest: device.highest)
        guard level != lastSet else { return }
        if set(device, level) { lastSet = level }
    }

    /// Puts the level back. One logind would not set is kept, with its file: the next ring
    /// does not take wake's own level for the user's, and the next restore tries again (as does
    /// the next wake to start, should this one end first).
    mutating func restore() {
        guard let device, let saved else { return }
        if lastSet != nil, !set(device, saved) { return }
        if let savePath { LightStateStore.remove(savePath) }
        self.device = nil
        self.saved = nil
        lastSet = nil
    }

    private mutating func set(_ device: Backlight, _ level: Int) -> Bool {
        if session == nil {
            switch SessionBrightness.seatSession() {
            case .failure(let why):
                tell("the backlight '\(device.name.printable)' cannot be set: \(why); the alarm rings without light")
                return false
            case .success(let path): session = path
            }
        }
        guard let session else { return false }
        if case .failure(let e) = SessionBrightness.set(device, to: level, session: session) {
            self.session = nil  // asked again next time: the session may have ended
            tell("logind did not set the backlight '\(device.name.printable)': \(e); tried again at its next change "
                 + "(the alarm rings either way)")
            return false
        }
        return true
    }
}
