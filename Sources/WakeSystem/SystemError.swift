import Glibc
import SystemPackage

/// A failed kernel or C-library call: which call, and the errno it left.
public struct SystemCallError: Error, CustomStringConvertible, Equatable {
    public var call: String
    public var errno: Errno
    public init(_ call: String, _ errno: Errno) { self.call = call; self.errno = errno }
    public var description: String { "\(call): \(errno.description)" }
}

/// Runs a call that returns -1 and sets errno on failure, retrying when a signal interrupted it.
/// The one place EINTR is handled.
@discardableResult
func syscall<T: FixedWidthInteger>(_ name: String, _ body: () -> T) throws(SystemCallError) -> T {
    while true {
        let r = body()
        if r != -1 { return r }
        let e = Errno(rawValue: Glibc.errno)
        if e == .interrupted { continue }
        throw SystemCallError(name, e)
    }
}
