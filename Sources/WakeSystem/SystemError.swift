import Glibc
import SystemPackage

/// A failed kernel or C-library call: which call, and the errno it left.
public struct SystemCallError: Error, CustomStringConvertible, Equatable {
    public var call: String
    public var errno: Errno
    public init(_ call: String, _ errno: Errno) { self.call = call; self.errno = errno }
    public var description: String { "\(call): \(errno.description)" }
    /// The errno's text alone ("No such file or directory"), for a message that names the call's object itself.
    public var reason: String { errno.description }
}

/// Runs a call that returns -1 and sets errno on failure, retrying when a signal interrupted it.
/// The one place EINTR is handled.
///
/// Debug builds can make a call fail here without making it (`FaultInjector`, site `syscall`,
/// target the call's name): the error is then handled exactly as the kernel's would be, so each
/// wrapper's error paths are unit tests. Release builds have no such check.
@discardableResult
func syscall<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws(SystemCallError) -> T {
    while true {
        #if DEBUG
        if let injected = FaultInjector.systemCallFault(name) {
            if injected == EINTR { continue }
            throw SystemCallError(name, Errno(rawValue: injected))
        }
        #endif
        let r = body()
        if r != -1 { return r }
        let e = Errno(rawValue: Glibc.errno)
        if e == .interrupted { continue }
        throw SystemCallError(name, e)
    }
}
