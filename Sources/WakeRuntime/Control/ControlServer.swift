import Glibc
import WakeCore
import WakeEngine
import WakeSystem

/// The control endpoint of one wake process: a Unix socket in the user's control directory,
/// served from the event loop. One request per connection, answered at once.
///
/// Nothing a client does may hold up a ringing alarm, so the server never waits on one:
/// sockets are non-blocking; a request is at most `ControlProtocol.maxRequest` bytes; a client
/// that says nothing, or does not read its answer, is dropped after `idleLimit`; at most
/// `maxClients` are held (a new one pushes out the oldest); each turn accepts at most
/// `acceptsPerTurn`, so a flood of connections shares the loop with the sound instead of
/// taking it over. A peer whose uid is not ours is closed before a byte is read.
public final class ControlServer {
    public typealias Handler = (ControlRequest, PeerCredentials) -> [ControlRecord]

    public static let maxClients = 16
    public static let idleLimit: Duration = .seconds(5)
    static let acceptsPerTurn = 32

    private final class Client {
        let socket: UnixSocket
        let peer: PeerCredentials
        let since: Instant
        var registration: Reactor.Registration?
        var input: [UInt8] = []
        var output: ArraySlice<UInt8> = []
        var answered = false

        init(socket: UnixSocket, peer: PeerCredentials, since: Instant) { self.socket = socket; self.peer = peer; self.since = since }
    }

    public let path: String
    private let reactor: Reactor
    private let listener: UnixSocket
    private var listenerRegistration: Reactor.Registration?
    private var clients: [Client] = []
    private var listenerResting = false
    private var sweep: PeriodicTimer?
    private let owner = geteuid()
    private let handler: Handler
    /// Called for a peer of another user, after it was shut out.
    public var onRefused: ((PeerCredentials) -> Void)?

    /// Listens at `path`; `handler` answers each well-formed request from this user.
    public init(reactor: Reactor, timers: ReactorTimers, path: String, handler: @escaping Handler) throws(SystemCallError) {
        // Both made before any property is set: a throw after that would run deinit, whose
        // close() would remove a socket file this process never owned.
        let me = WeakBox<ControlServer>()
        let sweep = try timers.periodic(.seconds(1)) { me.object?.dropIdle() }
        let listener = try UnixSocket.listen(at: path)
        self.path = path
        self.reactor = reactor
        self.listener = listener
        self.handler = handler
        self.sweep = sweep
        me.object = self
        listenerRegistration = reactor.register(fd: listener.fd) { [unowned self] _ in acceptClients() }
    }

    /// Stops listening and removes the socket file: this process no longer answers.
    public func close() {
        if let listenerRegistration { reactor.unregister(listenerRegistration) }
        listenerRegistration = nil
        for c in clients { drop(c) }
        sweep?.stop()
        sweep = nil
        _ = unlink(path)
    }

    deinit { close() }

    public var clientCount: Int { clients.count }

    // MARK: clients

    private func acceptClients() {
        for _ in 0..<Self.acceptsPerTurn {
            let socket: UnixSocket?
            do { socket = try listener.accept() } catch {
                // Out of descriptors (EMFILE and the like): make room by dropping the oldest
                // client, as a full table does. With none to drop the client stays queued and the
                // listener readable, so polling it now would spin: rest it until the next sweep.
                if let oldest = clients.first { drop(oldest); continue }
                if let listenerRegistration { reactor.update(listenerRegistration, events: 0) }
                listenerResting = true
                sweep?.start()
                return
            }
            guard let socket else { return }
            guard let peer = try? socket.peerCredentials() else { continue }  // closed as `socket` goes
            guard peer.uid == owner else {
                onRefused?(peer)
                continue
            }
            if clients.count >= Self.maxClients, let oldest = clients.first { drop(oldest) }
            let client = Client(socket: socket, peer: peer, since: SystemClock.monotonic)
            client.registration = reactor.register(fd: socket.fd) { [unowned self, unowned client] revents in serve(client, revents) }
            clients.append(client)
            if sweep?.isRunning == false { sweep?.start() }
        }
    }

    private func serve(_ client: Client, _ revents: Int16) {
        if client.answered { return flush(client) }
        let room = ControlProtocol.maxRequest - client.input.count
        let result: UnixSocket.ReadResult
        do { result = try client.socket.read(into: &client.input, limit: room) } catch { return drop(client) }
        switch result {
        case .wouldBlock: return
        case .end where !client.input.contains(UInt8(ascii: "\n")): return drop(client)
        default: break
        }
        if let newline = client.input.firstIndex(of: UInt8(ascii: "\n")) {
            answer(client, line: client.input[..<newline])
        } else if client.input.count >= ControlProtocol.maxRequest {
            reply(client, [ControlRecord(["kind": "error", "message": "request too long"])])
        }
    }

    private func answer(_ client: Client, line: ArraySlice<UInt8>) {
        let records: [ControlRecord]
        do {
            let request = try ControlRequest(parsing: line)
            records = handler(request, client.peer)
        } catch {
            records = [ControlRecord(["kind": "error", "message": error.description])]
        }
        reply(client, records)
    }

    private func reply(_ client: Client, _ records: [ControlRecord]) {
        client.answered = true
        client.input = []
        let text = (records + [ControlRecord(["kind": "end"])]).map(\.line).joined()
        client.output = ArraySlice(text.utf8)
        flush(client)
    }

    private func flush(_ client: Client) {
        do {
            while !client.output.isEmpty {
                let n = try client.socket.write(client.output)
                if n == 0 {
                    if let r = client.registration { reactor.update(r, events: Int16(POLLOUT)) }
                    return
                }
                client.output = client.output.dropFirst(n)
            }
        } catch {}
        drop(client)
    }

    private func drop(_ client: Client) {
        if let r = client.registration { reactor.unregister(r) }
        client.registration = nil
        clients.removeAll { $0 === client }
        if clients.isEmpty && !listenerResting { sweep?.stop() }
    }

    private func dropIdle() {
        if listenerResting, let listenerRegistration {
            listenerResting = false
            reactor.update(listenerRegistration, events: Int16(POLLIN))
        }
        let now = SystemClock.monotonic
        for c in clients where now - c.since > Self.idleLimit { drop(c) }
        if clients.isEmpty && !listenerResting { sweep?.stop() }
    }
}
