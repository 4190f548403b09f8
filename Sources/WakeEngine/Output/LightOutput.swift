/// The screen's backlight as a lit alarm (`--light`) drives it: the runner says how far along
/// (a share of the way from the device's lowest lit level to its highest) and when to put it
/// back; the output finds the device, saves what it was and sets it, off the loop. Best effort:
/// what goes wrong is said through `onProblem`, and the alarm rings whatever the light does.
public protocol LightOutput: AnyObject {
    /// Shows `share` (0: the lowest lit level, 1: the highest); the first since the last
    /// `restore` saves the level it finds.
    func show(_ share: Double)
    /// Puts the backlight back as it was before the first `show`, if anything was shown.
    func restore()
    /// At exit: waits at most `limit` for what was asked (a restore) to be done.
    func settle(within limit: Duration)
    /// On the loop: one line for each new thing that went wrong.
    var onProblem: ((String) -> Void)? { get set }
}
