import Glibc

/// A thread that is never joined: the output workers and the bounded arm-time calls, which may
/// block inside a library for ever and are then simply left behind. It inherits the caller's
/// signal mask, so (started after `main` blocked them) it never takes a signal.
public enum DetachedThread {
    private final class Body: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    public static func start(_ run: @escaping () -> Void) throws(SystemCallError) {
        let context = Unmanaged.passRetained(Body(run)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let r = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        if r != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemCallError("pthread_create", .init(rawValue: r))
        }
    }
}
