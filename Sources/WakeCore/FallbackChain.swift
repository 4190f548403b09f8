/// Where a ring's sound goes next when the current output fails: the order of the fallbacks
/// as a value, so it is tested without a device.
///
/// A device that fails (will not open, errors, stalls) is reopened once, then `default`, then
/// each card's `plughw:N`, and last the terminal bell. A sound that fails to decode (the user's
/// file replaced or truncated during the night) is replaced by wake's built-in sound on the
/// same device: it is embedded, so it always decodes.
public struct FallbackChain: Hashable, Sendable {
    public enum Sound: String, Hashable, Sendable {
        case user, builtIn
    }

    public enum Output: Hashable, Sendable {
        case device(String, Sound)
        case bell

        public var deviceName: String? { if case .device(let d, _) = self { return d } else { return nil } }
    }

    public enum Failure: Hashable, Sendable {
        case device
        case sound
    }

    public let requested: String
    public private(set) var current: Output
    private var devices: [String]
    private var extended = false

    /// `sound`: `.user` when the alarm has a sound file of its own, else `.builtIn`.
    public init(device: String, sound: Sound) {
        requested = device
        devices = []
        current = .device(device, sound)
    }

    /// The devices tried in turn: the requested one, `default`, then each card's `plughw:N`.
    public static func deviceSteps(requested: String, cards: [Int]) -> [String] {
        var devices = [requested]
        if requested != "default" { devices.append("default") }
        return devices + cards.map { "plughw:\($0)" }.filter { $0 != requested }
    }

    /// Moves on after `failure` of the current output; `cards` lists the sound cards' numbers and
    /// is asked at most once, when the chain first needs the fallback devices.
    @discardableResult
    public mutating func advance(after failure: Failure, cards: () -> [Int]) -> Output {
        guard case .device(let device, let sound) = current else { return current }
        if failure == .sound && sound == .user {
            current = .device(device, .builtIn)
            return current
        }
        if !extended {
            extended = true
            devices = Self.deviceSteps(requested: requested, cards: cards())  // reopened once: a device can fail transiently
        }
        current = devices.isEmpty ? .bell : .device(devices.removeFirst(), sound)
        return current
    }
}
