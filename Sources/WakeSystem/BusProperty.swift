import CSystemd
import Glibc

/// One property read over D-Bus (`org.freedesktop.DBus.Properties.Get`), bounded, on its own
/// connection: what `wake doctor` asks of timedated (is the clock synchronised?) and logind
/// (what does a closed lid do?). A service that is not there is an answer too: nil with why.
public enum BusProperty {
    public enum Bus: Sendable { case system, session }

    public enum Value: Equatable, Sendable {
        case bool(Bool)
        case string(String)
    }

    /// `property` of `interface` at `path` of `service`, read as `type` ("b" or "s").
    public static func read(_ bus: Bus, service: String, path: String, interface: String, property: String, type: Character,
                            timeout: Duration = .seconds(1)) -> Result<Value, BusError> {
        let signature = String(type)
        let appended = { (m: OpaquePointer) -> Int32 in
            let r = BusQuestion.appendString(m, interface)
            return r < 0 ? r : BusQuestion.appendString(m, property)
        }
        let got = BusQuestion.call(bus, service: service, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                                   timeout: timeout, append: appended) { reply -> Value? in
            guard wake_sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), signature) > 0 else { return nil }
            if type == "b" {
                var v: Int32 = 0
                guard wake_sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &v) > 0 else { return nil }
                return .bool(v != 0)
            }
            return BusQuestion.readString(reply).map { .string($0) }
        }
        // Said as the property, as before: `org.freedesktop.timedate1.NTPSynchronized: ...`.
        return got.mapError { e in
            e.call.hasSuffix(".Get") ? BusError(call: "\(interface).\(property)", name: e.name, message: e.message) : e
        }
    }
}
