import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// D-Bus activation of the daemon (issue 41): under a real systemd user manager, whose own
/// session bus (Debian's user units: dbus.socket, and dbus-daemon with `--systemd-activation`)
/// reads `Resources/io.github.wakeclock.Wake1.service` from `$XDG_RUNTIME_DIR/dbus-1/services`, a
/// call to the API's name starts wake.service through systemd (`SystemdService=`) and is answered.
@Suite(.serialized, .enabled(if: SystemdUserManager.isAvailable, "needs root, systemd, unshare and nsenter"))
struct BusActivationTests {
    static let serviceFile: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/io.github.wakeclock.Wake1.service").path
    }()

    @Test("a call to io.github.wakeclock.Wake1 starts wake.service and is answered")
    func activationStartsTheUnit() async throws {
        let dir = try TestDirectory("wake-activation")
        let stateHome = dir.file("state")
        guard mkdir(stateHome, 0o700) == 0 else { throw WakeTestError("mkdir \(stateHome): errno \(errno)") }
        try await SystemdUserManager.with { m in
            try await m.installUnit("wake.service", text: try WakeUnitFile.text())
            let command = [WakeBinary.path, "daemon", "--inhibit", "off", "--notify", "off"].map(DaemonUnitTests.unitQuoted).joined(separator: " ")
            try await m.installDropIn(for: "wake.service", text: "[Service]\nExecStart=\nExecStart=\(command)\n")
            try await m.setEnvironment(["XDG_CONFIG_HOME": m.configHome, "XDG_STATE_HOME": stateHome, "TZ": "UTC"])
            // The service file as shipped, its Exec= pointed at the binary under test, where the
            // session bus looks first ($XDG_RUNTIME_DIR/dbus-1/services: dbus-daemon takes
            // XDG_DATA_HOME's default from the password file, root's real home here, not HOME).
            guard let shipped = FileManager.default.contents(atPath: Self.serviceFile) else { throw WakeTestError("cannot read \(Self.serviceFile)") }
            let text = String(decoding: shipped, as: UTF8.self).replacingOccurrences(of: "Exec=/usr/local/bin/wake daemon", with: "Exec=\(WakeBinary.path) daemon")
            let services = m.runtimeDirectory + "/dbus-1/services"
            try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
            try text.write(toFile: services + "/io.github.wakeclock.Wake1.service", atomically: true, encoding: .utf8)
            try await m.systemctlChecked(["start", "dbus.socket"])
            #expect(try await m.activeState(of: "wake.service") != "active")

            let bus = "unix:path=\(m.runtimeDirectory)/bus"
            // The bus may have started before the directory existed (it watches only those that
            // did): it reads its service directories again, as after a package's install.
            let reload = try await ChildProcess(NotificationMock.busctlPath, ["--address=\(bus)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                                              "org.freedesktop.DBus", "ReloadConfig"],
                                                environment: m.environment, directory: dir).wait(timeout: .seconds(30))
            #expect(reload.exitCode == 0, "\(reload)")
            let call = try await ChildProcess(NotificationMock.busctlPath, ["--address=\(bus)", "--timeout=60", "get-property", "io.github.wakeclock.Wake1",
                                                                            "/io/github/wakeclock/Wake1", "io.github.wakeclock.Wake1.Manager", "Version"],
                                              environment: m.environment, directory: dir).wait(timeout: .seconds(90))
            #expect(call.exitCode == 0 && call.stdout.contains("u 1"), "\(call)\nmanager log:\n\(m.log)")
            #expect(try await m.activeState(of: "wake.service") == "active", "manager log:\n\(m.log)")
            #expect(try await m.property("BusName", of: "wake.service") == "io.github.wakeclock.Wake1")
            try await m.systemctlChecked(["stop", "wake.service"])
        }
    }
}
