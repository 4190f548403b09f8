import WakeCore
import WakeSystem

/// One ringing alarm's MPRIS player: a connection of its own to the session bus (the spec fixes
/// the object path, so two players need two connections), the name it owns, and the two
/// interfaces at /org/mpris/MediaPlayer2. It knows nothing of alarms: it shows a status and a
/// track, and hands every method a client calls to `onCall` with the caller.
/// Nothing here waits for the bus: the name request and every reply move when the owner's loop
/// calls `service.process()`.
final class MediaPlayer {
    static let path = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    /// The name clients look for first (`playerctl -p wake`).
    static let name = "org.mpris.MediaPlayer2.wake"

    /// A second player (another wake process, another alarm of this one) takes an instance
    /// name, which clients group under `wake` (`wake.instance4242`, then `wake.instance4242_2`
    /// for a third alarm of the same process):
    /// a bus name's element must not start with a digit, hence the word before the PID.
    static func instanceName(pid: Int32, slot: Int) -> String {
        "\(name).instance\(pid)" + (slot > 0 ? "_\(slot + 1)" : "")
    }

    enum Status: String {
        case playing = "Playing"
        case paused = "Paused"
    }

    /// What the media widget shows: GNOME's shows the artist as its title line, so the alarm's
    /// time and its note are both there.
    struct Track: Equatable {
        var title: String
        var artist: String
        /// An object path naming the alarm; not under /org/mpris, which the spec reserves.
        var id: String
    }

    /// The methods that mean something for an alarm.
    enum Method: String {
        case play = "Play", pause = "Pause", playPause = "PlayPause", stop = "Stop", next = "Next"
    }

    let service: BusService
    private var objects: BusObjects?
    /// The name owned, once the bus said so.
    private(set) var owned: String?
    private(set) var status: Status
    private(set) var track: Track
    /// A client called `Method`; the `String` is its unique bus name.
    var onCall: ((Method, BusCaller) -> Void)?

    /// Connects (without waiting) and serves the objects; the name is asked for by `claim`.
    /// Throws when there is no session bus to connect to.
    init(status: Status, track: Track, address: String? = nil) throws(BusError) {
        self.status = status
        self.track = track
        service = try BusService(description: "wake-mpris", address: address)
        let objects = try BusObjects(service: service, root: Self.path, objectManager: false)
        self.objects = objects
        objects.put(Self.path, [rootObject(), playerObject()])
    }

    /// Asks for `name`, else the first of `others` that is free, in order, without waiting;
    /// `done` gets the one owned, or the error that ended the tries (the last name taken too,
    /// or the bus).
    func claim(_ name: String, else others: [String] = [], done: @escaping (Result<String, BusError>) -> Void) {
        do {
            try service.requestName(name) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success:
                    owned = name
                    done(.success(name))
                case .failure(let error) where error.name == "org.freedesktop.DBus.Error.NameExists" && !others.isEmpty:
                    claim(others[0], else: Array(others.dropFirst()), done: done)
                case .failure(let error):
                    done(.failure(error))
                }
            }
        } catch {
            done(.failure(error))
        }
    }

    /// Shows `status` and `track`, telling clients what changed (PropertiesChanged).
    func show(_ status: Status, _ track: Track) {
        var names: [String] = []
        if status != self.status { names.append("PlaybackStatus") }
        if track != self.track { names.append("Metadata") }
        self.status = status
        self.track = track
        if !names.isEmpty { objects?.changed(Self.path, interface: Self.playerInterface, names) }
    }

    /// Leaves the bus, which releases the name; what is queued (the reply to the Stop that
    /// ended the alarm) is written first, for at most `limit`.
    func close(flushing limit: Duration) {
        onCall = nil
        service.close(flushing: limit)
        objects = nil
    }

    // MARK: the interfaces

    private func rootObject() -> BusInterface {
        BusInterface(
            name: Self.rootInterface,
            introspection: """
              <method name="Raise"/>
              <method name="Quit"/>
              <property name="CanQuit" type="b" access="read"/>
              <property name="CanRaise" type="b" access="read"/>
              <property name="HasTrackList" type="b" access="read"/>
              <property name="Identity" type="s" access="read"/>
              <property name="DesktopEntry" type="s" access="read"/>
              <property name="SupportedUriSchemes" type="as" access="read"/>
              <property name="SupportedMimeTypes" type="as" access="read"/>
            """,
            properties: {
                [("CanQuit", .boolean(false)), ("CanRaise", .boolean(false)), ("HasTrackList", .boolean(false)),
                 ("Identity", .string("wake")), ("DesktopEntry", .string("wake")),
                 ("SupportedUriSchemes", .strings([])), ("SupportedMimeTypes", .strings([]))]
            },
            call: { call in
                // CanRaise and CanQuit are false: the spec asks that these then do nothing.
                ["Raise", "Quit"].contains(call.member) ? .done : nil
            })
    }

    private func playerObject() -> BusInterface {
        BusInterface(
            name: Self.playerInterface,
            introspection: """
              <method name="Next"/>
              <method name="Previous"/>
              <method name="Pause"/>
              <method name="PlayPause"/>
              <method name="Stop"/>
              <method name="Play"/>
              <method name="Seek"><arg name="Offset" type="x" direction="in"/></method>
              <method name="SetPosition"><arg name="TrackId" type="o" direction="in"/><arg name="Position" type="x" direction="in"/></method>
              <method name="OpenUri"><arg name="Uri" type="s" direction="in"/></method>
              <signal name="Seeked"><arg name="Position" type="x"/></signal>
              <property name="PlaybackStatus" type="s" access="read"/>
              <property name="Rate" type="d" access="read"/>
              <property name="Metadata" type="a{sv}" access="read"/>
              <property name="Volume" type="d" access="read"/>
              <property name="Position" type="x" access="read"/>
              <property name="MinimumRate" type="d" access="read"/>
              <property name="MaximumRate" type="d" access="read"/>
              <property name="CanGoNext" type="b" access="read"/>
              <property name="CanGoPrevious" type="b" access="read"/>
              <property name="CanPlay" type="b" access="read"/>
              <property name="CanPause" type="b" access="read"/>
              <property name="CanSeek" type="b" access="read"/>
              <property name="CanControl" type="b" access="read"/>
            """,
            properties: { [unowned self] in
                // CanPlay stays true: GNOME shows a player only while it is.
                [("PlaybackStatus", .string(status.rawValue)), ("Rate", .double(1)), ("Metadata", metadata),
                 ("Volume", .double(1)), ("Position", .int64(0)), ("MinimumRate", .double(1)), ("MaximumRate", .double(1)),
                 ("CanGoNext", .boolean(true)), ("CanGoPrevious", .boolean(false)), ("CanPlay", .boolean(true)),
                 ("CanPause", .boolean(true)), ("CanSeek", .boolean(false)), ("CanControl", .boolean(true))]
            },
            call: { [unowned self] call in
                if let method = Method(rawValue: call.member) {
                    onCall?(method, call.caller)
                    return .done
                }
                // Previous, Seek, SetPosition and OpenUri: the spec asks for no effect when the
                // player cannot (CanGoPrevious and CanSeek are false, no URI scheme is supported).
                return ["Previous", "Seek", "SetPosition", "OpenUri"].contains(call.member) ? .done : nil
            })
    }

    private var metadata: BusValue {
        .properties([("mpris:trackid", .objectPath(track.id)), ("xesam:title", .string(track.title)),
                     ("xesam:artist", .strings([track.artist]))])
    }
}
