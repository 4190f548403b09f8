/// One interface of an object wake serves: its introspection, its properties read at the
/// moment they are asked for, and its methods.
public struct BusInterface {
    public var name: String
    /// The `<method>`, `<property>` and `<signal>` elements inside its `<interface>`.
    public var introspection: String
    /// Every property with its value now, in the order Introspect lists them.
    public var properties: () -> [(String, BusValue)]
    /// A property written with Properties.Set; nil: every property is read-only.
    public var setProperty: ((String, BusValue, BusCall) -> BusReply)?
    /// A method; nil: no such method (UnknownMethod).
    public var call: (BusCall) -> BusReply?

    public init(name: String, introspection: String, properties: @escaping () -> [(String, BusValue)] = { [] },
                setProperty: ((String, BusValue, BusCall) -> BusReply)? = nil, call: @escaping (BusCall) -> BusReply? = { _ in nil }) {
        self.name = name; self.introspection = introspection; self.properties = properties; self.setProperty = setProperty; self.call = call
    }
}

/// The objects under one path of a `BusService`, with the standard interfaces every client
/// expects answered for them: Introspectable (what busctl and d-feet show), Properties (Get,
/// GetAll, Set, PropertiesChanged) and, when asked, ObjectManager at the root (the collection
/// a client follows without polling). sd-bus's vtables would do this, but they are C macros
/// over variadic calls Swift cannot make.
public final class BusObjects {
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let introspectable = "org.freedesktop.DBus.Introspectable"

    public let service: BusService
    public let root: String
    private let managesObjects: Bool
    private var objects: [String: [BusInterface]] = [:]

    public init(service: BusService, root: String, objectManager: Bool) throws(BusError) {
        self.service = service
        self.root = root
        managesObjects = objectManager
        try service.serve(path: root, subtree: true) { [unowned self] call in handle(call) }
    }

    /// Whether `path` is served now.
    public func has(_ path: String) -> Bool { objects[path] != nil }

    /// Serves `path` with `interfaces` (replacing what it had); a new object beneath the root is
    /// announced with InterfacesAdded unless `announce` is false (the first objects, served
    /// before anyone can know the connection: a daemon with 200 alarms would queue 200 signals
    /// nobody receives).
    public func put(_ path: String, _ interfaces: [BusInterface], announce: Bool = true) {
        let isNew = objects[path] == nil
        objects[path] = interfaces
        if announce && isNew && managesObjects && path != root {
            try? service.emit(path: root, interface: Self.objectManager, member: "InterfacesAdded",
                              [.objectPath(path), interfacesAndProperties(interfaces)])
        }
    }

    /// Stops serving `path`, announced with InterfacesRemoved.
    public func remove(_ path: String) {
        guard let gone = objects.removeValue(forKey: path) else { return }
        if managesObjects && path != root {
            try? service.emit(path: root, interface: Self.objectManager, member: "InterfacesRemoved",
                              [.objectPath(path), .strings(gone.map(\.name) + standardInterfaces(path))])
        }
    }

    /// Every path served beneath the root.
    public var paths: [String] { objects.keys.filter { $0 != root }.sorted() }

    /// PropertiesChanged for `names` of `interface` at `path`, with their values now.
    public func changed(_ path: String, interface: String, _ names: [String]) {
        guard let i = objects[path]?.first(where: { $0.name == interface }) else { return }
        let values = i.properties().filter { names.contains($0.0) }
        guard !values.isEmpty else { return }
        try? service.emit(path: path, interface: Self.properties, member: "PropertiesChanged",
                          [.string(interface), .properties(values), .strings([])])
    }

    /// A signal of one of the objects.
    public func emit(_ path: String, interface: String, member: String, _ values: [BusValue]) {
        try? service.emit(path: path, interface: interface, member: member, values)
    }

    // MARK: answering

    private func interfacesAndProperties(_ interfaces: [BusInterface]) -> BusValue {
        .dictionary(key: "s", value: "a{sv}", interfaces.map { (.string($0.name), .properties($0.properties())) })
    }

    private func standardInterfaces(_ path: String) -> [String] {
        [Self.introspectable, Self.properties, "org.freedesktop.DBus.Peer"] + (managesObjects && path == root ? [Self.objectManager] : [])
    }

    private func handle(_ call: BusCall) -> BusReply? {
        let interfaces = objects[call.path]
        let isNode = interfaces != nil || call.path == root || objects.keys.contains { $0.hasPrefix(call.path + "/") }
        guard isNode else {
            return .error(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no object at '\(call.path)'")
        }
        switch (call.interface, call.member) {
        case (Self.introspectable, "Introspect"), ("", "Introspect"):
            return .values([.string(introspect(call.path, interfaces ?? []))])
        case (Self.objectManager, "GetManagedObjects") where managesObjects && call.path == root:
            let all = paths.map { (BusValue.objectPath($0), interfacesAndProperties(objects[$0] ?? [])) }
            return .values([.dictionary(key: "o", value: "a{sa{sv}}", all)])
        case (Self.properties, let member):
            return properties(member, call, interfaces ?? [])
        default:
            let target = interfaces?.first { $0.name == call.interface || call.interface.isEmpty && $0.introspection.contains("<method name=\"\(call.member)\"") }
            guard let target else {
                return .error(name: "org.freedesktop.DBus.Error.UnknownInterface", message: "no interface '\(call.interface)' at '\(call.path)'")
            }
            return target.call(call)
        }
    }

    private func properties(_ member: String, _ call: BusCall, _ interfaces: [BusInterface]) -> BusReply {
        let name = call.arguments.first?.string ?? ""
        guard let i = interfaces.first(where: { $0.name == name }) else {
            // GetAll of an interface the object lacks is an empty answer in sd-bus and GDBus alike.
            if member == "GetAll" { return .values([.properties([])]) }
            return .error(name: "org.freedesktop.DBus.Error.UnknownInterface", message: "no interface '\(name)' at '\(call.path)'")
        }
        switch member {
        case "GetAll":
            return .values([.properties(i.properties())])
        case "Get":
            let property = call.arguments.dropFirst().first?.string ?? ""
            guard let v = i.properties().first(where: { $0.0 == property }) else {
                return .error(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property '\(property)' in '\(name)'")
            }
            return .values([.variant(v.1)])
        case "Set":
            let args = call.arguments
            guard args.count == 3, let property = args[1].string else { return .invalidArgs("Set takes (ssv)") }
            guard i.properties().contains(where: { $0.0 == property }) else {
                return .error(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "no property '\(property)' in '\(name)'")
            }
            guard let set = i.setProperty else {
                return .error(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "'\(property)' is read-only")
            }
            let value: BusValue
            if case .variant(let inner) = args[2] { value = inner } else { value = args[2] }
            return set(property, value, call)
        default:
            return .unknownMethod(call)
        }
    }

    private func introspect(_ path: String, _ interfaces: [BusInterface]) -> String {
        var xml = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
         <interface name="org.freedesktop.DBus.Peer">
          <method name="Ping"/>
          <method name="GetMachineId"><arg type="s" name="machine_uuid" direction="out"/></method>
         </interface>
         <interface name="org.freedesktop.DBus.Introspectable">
          <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
         </interface>
         <interface name="org.freedesktop.DBus.Properties">
          <method name="Get"><arg name="interface_name" direction="in" type="s"/><arg name="property_name" direction="in" type="s"/><arg name="value" direction="out" type="v"/></method>
          <method name="GetAll"><arg name="interface_name" direction="in" type="s"/><arg name="props" direction="out" type="a{sv}"/></method>
          <method name="Set"><arg name="interface_name" direction="in" type="s"/><arg name="property_name" direction="in" type="s"/><arg name="value" direction="in" type="v"/></method>
          <signal name="PropertiesChanged"><arg type="s" name="interface_name"/><arg type="a{sv}" name="changed_properties"/><arg type="as" name="invalidated_properties"/></signal>
         </interface>

        """
        if managesObjects && path == root {
            xml += """
             <interface name="org.freedesktop.DBus.ObjectManager">
              <method name="GetManagedObjects"><arg type="a{oa{sa{sv}}}" name="object_paths_interfaces_and_properties" direction="out"/></method>
              <signal name="InterfacesAdded"><arg type="o" name="object_path"/><arg type="a{sa{sv}}" name="interfaces_and_properties"/></signal>
              <signal name="InterfacesRemoved"><arg type="o" name="object_path"/><arg type="as" name="interfaces"/></signal>
             </interface>

            """
        }
        for i in interfaces {
            xml += " <interface name=\"\(i.name)\">\n\(i.introspection)\n </interface>\n"
        }
        let prefix = path == "/" ? "/" : path + "/"
        var children: Set<String> = []
        for p in objects.keys where p.hasPrefix(prefix) {
            if let child = p.dropFirst(prefix.count).split(separator: "/").first { children.insert(String(child)) }
        }
        for child in children.sorted() { xml += " <node name=\"\(child)\"/>\n" }
        return xml + "</node>\n"
    }
}

extension BusObjects {
    /// An object path element for any text (a D-Bus path allows only `[A-Za-z0-9_]`): the
    /// letters and digits kept, every other byte `_XX` in hex, as systemd escapes unit names.
    public static func pathElement(_ text: String) -> String {
        if text.isEmpty { return "_" }
        var out = ""
        for byte in text.utf8 {
            let c = Character(UnicodeScalar(byte))
            if byte < 0x80 && (c.isLetter || (c.isNumber && !out.isEmpty)) {
                out.append(c)
            } else {
                out += "_" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        return out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
