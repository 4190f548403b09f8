import Foundation
import Glibc
import Testing
@testable import WakeSystem
@testable import WakeTestSupport

/// BusService and BusObjects against a private dbus-daemon, asked by busctl as a user would:
/// the standard interfaces answered for a Swift-described object, arguments of every shape
/// read, errors given by name, the collection followed through ObjectManager.
@Suite(.serialized) struct BusServiceTests {
    /// Runs busctl while the service's connection is pumped on this thread, as the event loop would.
    private func busctl(_ mock: NotificationMock, _ service: BusService, _ arguments: [String]) async throws -> ProcessResult {
        let p = try ChildProcess(NotificationMock.busctlPath, ["--address=\(mock.address)"] + arguments, environment: mock.environment,
                                 directory: mock.directory)
        let deadline = ContinuousClock.now + .seconds(30)
        while !p.hasExited && ContinuousClock.now < deadline {
            service.process()
            if let pfd = service.pollDescriptor {
                var fds = [pfd]
                _ = try? Poll.wait(&fds, timeout: .milliseconds(20))
            } else { usleep(20_000) }
        }
        service.process()
        return await p.wait(timeout: .seconds(5))
    }

    private func pump(_ service: BusService, until done: () -> Bool) {
        let deadline = ContinuousClock.now + .seconds(20)
        while !done() && ContinuousClock.now < deadline {
            service.process()
            if let pfd = service.pollDescriptor { var fds = [pfd]; _ = try? Poll.wait(&fds, timeout: .milliseconds(20)) }
        }
    }

    private func withService(_ body: (NotificationMock, BusService, BusObjects) async throws -> Void) async throws {
        guard NotificationMock.isAvailable else { return }
        try await NotificationMock.with(server: false) { mock in
            let service = try BusService(description: "test", address: mock.address)
            var owned: Result<Void, BusError>?
            try service.requestName("org.example.Test1") { owned = $0 }
            pump(service) { owned != nil }
            #expect(throws: Never.self) { try owned?.get() }
            let objects = try BusObjects(service: service, root: "/org/example/Test1", objectManager: true)
            try await body(mock, service, objects)
        }
    }

    private static func counter(_ state: Box) -> BusInterface {
        BusInterface(
            name: "org.example.Counter",
            introspection: """
              <method name="Add"><arg name="options" type="a{sv}" direction="in"/><arg name="total" type="x" direction="out"/></method>
              <property name="Total" type="x" access="read"/>
              <property name="Label" type="s" access="readwrite"/>
            """,
            properties: { [("Total", .int64(state.total)), ("Label", .string(state.label))] },
            setProperty: { name, value, _ in
                guard let s = value.string else { return .invalidArgs("\(name) is a string") }
                state.label = s
                return .done
            },
            call: { call in
                guard call.member == "Add" else { return nil }
                guard let options = call.arguments.first?.stringKeyed, let n = options["by"]?.integer else { return .invalidArgs("Add takes {by: integer}") }
                state.total += n
                state.callers.append(call.sender)
                return .values([.int64(state.total)])
            })
    }

    final class Box: @unchecked Sendable { var total: Int64 = 0; var label = "start"; var callers: [String] = [] }

    @Test func methodsPropertiesAndIntrospection() async throws {
        try await withService { mock, service, objects in
            let state = Box()
            objects.put("/org/example/Test1/item/a", [Self.counter(state)])
            var r = try await busctl(mock, service, ["call", "org.example.Test1", "/org/example/Test1/item/a", "org.example.Counter", "Add", "a{sv}", "1", "by", "x", "5"])
            #expect(r.exitCode == 0 && r.stdout.contains("x 5"), "\(r)")
            #expect(state.callers.count == 1 && state.callers[0].hasPrefix(":"))
            r = try await busctl(mock, service, ["get-property", "org.example.Test1", "/org/example/Test1/item/a", "org.example.Counter", "Total"])
            #expect(r.stdout.contains("x 5"), "\(r)")
            r = try await busctl(mock, service, ["set-property", "org.example.Test1", "/org/example/Test1/item/a", "org.example.Counter", "Label", "s", "new"])
            #expect(r.exitCode == 0 && state.label == "new", "\(r)")
            r = try await busctl(mock, service, ["introspect", "org.example.Test1", "/org/example/Test1/item/a"])
            #expect(r.stdout.contains(".Add") && r.stdout.contains(".Label") && r.stdout.contains("writable"), "\(r)")
            r = try await busctl(mock, service, ["introspect", "--xml-interface", "org.example.Test1", "/org/example/Test1"])
            #expect(r.stdout.contains("<node name=\"item\"/>") && r.stdout.contains("ObjectManager"), "\(r)")
            r = try await busctl(mock, service, ["call", "org.example.Test1", "/org/example/Test1/item/a", "org.example.Counter", "Add", "a{sv}", "0"])
            #expect(r.exitCode != 0 && r.stderr.contains("Add takes"), "\(r)")
            r = try await busctl(mock, service, ["call", "org.example.Test1", "/org/example/Test1/item/zz", "org.example.Counter", "Add", "a{sv}", "0"])
            #expect(r.exitCode != 0 && r.stderr.contains("no object"), "\(r)")
            r = try await busctl(mock, service, ["call", "org.example.Test1", "/org/example/Test1/item/a", "org.example.Counter", "Nope"])
            #expect(r.exitCode != 0, "\(r)")
        }
    }

    @Test func objectManagerListsAndAnnounces() async throws {
        try await withService { mock, service, objects in
            let monitor = try ChildProcess("/usr/bin/dbus-monitor", ["--address", mock.address, "interface='org.freedesktop.DBus.ObjectManager'"],
                                           environment: mock.environment, directory: mock.directory)
            usleep(300_000)
            objects.put("/org/example/Test1/item/b", [Self.counter(Box())])
            let r = try await busctl(mock, service, ["call", "--json=short", "org.example.Test1", "/org/example/Test1", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects"])
            #expect(r.stdout.contains("/org/example/Test1/item/b") && r.stdout.contains("Label"), "\(r)")
            objects.remove("/org/example/Test1/item/b")
            pump(service) { monitor.currentStdout.contains("InterfacesRemoved") }
            #expect(monitor.currentStdout.contains("InterfacesAdded") && monitor.currentStdout.contains("InterfacesRemoved"), "\(monitor.currentStdout)")
        }
    }

    @Test func pathElementsEscapeAnyName() {
        #expect(BusObjects.pathElement("work") == "work")
        #expect(BusObjects.pathElement("early-1") == "early_2d1")
        #expect(BusObjects.pathElement("1a") == "_31a")
        #expect(BusObjects.pathElement("") == "_")
        #expect(BusObjects.pathElement("é").allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
    }
}
