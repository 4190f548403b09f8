import Glibc

/// A thread that is never joined: the output workers and the bounded calls, which may block
/// inside a library for ever and are then simply left behind. It inherits the caller's signal
/// mask, so (started after `main` blocked them) it never takes a signal.
///
/// In debug builds it also inherits the fault rules the starting test set for its task
/// (`FaultInjector.inject`): a thread has no task-local values of its own, and the calls a
/// worker makes (its device, its polls, its rings) are the ones the never-silent promise rests on.
public enum DetachedThread {
    private final class Body: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    public static func start(_ run: @escaping () -> Void) throws(SystemCallError) {
        let context = Unmanaged.passRetained(Body(FaultInjector.carried(run))).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        do {
            // pthread_create returns its error instead of setting errno: set it, for the funnel.
            try syscall("pthread_create") { () -> Int32 in
                let r = pthread_create(&thread, &attributes, { context in
                    guard let context else { return nil }
                    Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                    return nil
                }, context)
                if r == 0 { return 0 }
                errno = r
                return -1
            }
        } catch {
            Unmanaged<Body>.fromOpaque(context).release()
            throw error
        }
    }
}
