/// A weak reference to hand to a closure made before its owner exists: a source registered in
/// an initializer that must call back into the object being initialized, without a cycle.
public final class WeakBox<Object: AnyObject> {
    public weak var object: Object?
    public init() {}
}
