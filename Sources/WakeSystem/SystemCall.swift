/// The system-call funnel for the layers above WakeSystem: the same EINTR retry and typed
/// error as the wrappers here use.
public enum SystemCall {
    @discardableResult
    public static func retrying<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws(SystemCallError) -> T {
        try syscall(name, body)
    }
}
