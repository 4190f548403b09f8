import WakeSystem

extension ProcessStart {
    /// A command's start, once its arguments are parsed and before its body starts any thread:
    /// other libraries' lines kept off stderr (after parsing: swift-argument-parser prints its
    /// help and usage errors through stdio), the signalfd, and mixer levels a wake killed
    /// mid-ring left raised put back first, whatever the command. `daemon`: the descriptor
    /// limit raised too, since a user service starts with a soft limit of 1024 and the alarms'
    /// timers share one per clock while the device, the files and the clients get the rest.
    /// Process-wide: only the executable's world calls it (the in-process tests' make a
    /// `SignalChannel` and nothing else).
    public static func forCommand(daemon: Bool) throws(WakeFailure) -> SignalChannel {
        if daemon { raiseDescriptorLimit() }
        silenceLibraries()
        let signals: SignalChannel
        do {
            signals = try SignalChannel()
        } catch {
            throw WakeFailure(.resource, "cannot set up signal handling: \(error); raise 'ulimit -n'")
        }
        MixerCheck.restoreLeftovers()
        LightCheck.restoreLeftovers()
        return signals
    }
}
