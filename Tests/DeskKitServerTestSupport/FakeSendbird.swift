import DeskKitModel
import DeskKitTestSupport
import Hummingbird
import NIOCore

/// A fake Sendbird Platform API on 127.0.0.1: records every PUT and answers from a script (then 200).
package actor FakeSendbird {
    package struct Put: Sendable {
        package var path: String
        package var apiToken: String?
        /// The job's claim token (`DeskKit-Claim`).
        package var claim: String?
        package var body: JSONValue
        package var at: ContinuousClock.Instant
    }

    package struct Answer: Sendable {
        package var status: Int
        package var retryAfter: String?
        package var delay: Duration = .zero
        /// Held until this gate opens (or the request is given up on): an API that hangs.
        package var hold: Gate?

        /// An answer with `status`, after `delay`, held until `hold` opens.
        package init(status: Int, retryAfter: String? = nil, delay: Duration = .zero, hold: Gate? = nil) {
            (self.status, self.retryAfter, self.delay, self.hold) = (status, retryAfter, delay, hold)
        }
    }

    package private(set) var puts: [Put] = []
    private var script: [Answer] = []
    private var defaultDelay: Duration = .zero
    private var defaultHold: Gate?
    private var downUntil: ContinuousClock.Instant?
    private var server: GracefulServer?
    package private(set) var baseURL = ""

    /// A fake API, not started yet (``start()``).
    package init() {}

    package func answer(_ answers: Answer...) { script += answers }
    package func setDelay(_ delay: Duration) { defaultDelay = delay }
    /// Holds every answer until `gate` opens, or the client gives up: an API that hangs.
    package func hold(_ gate: Gate) { defaultHold = gate }
    /// Answers 503 to every PUT until `instant` (an outage), then as before.
    package func down(until instant: ContinuousClock.Instant) { downUntil = instant }

    package func record(_ put: Put) -> Answer {
        puts.append(put)
        if let downUntil, put.at < downUntil { return Answer(status: 503) }
        return script.isEmpty ? Answer(status: 200, delay: defaultDelay, hold: defaultHold) : script.removeFirst()
    }

    /// Waits until `count` PUTs arrived, then returns them.
    package nonisolated func waitForPuts(_ count: Int) async throws -> [Put] {
        try await until("\(count) PUTs at the Platform API") {
            let puts = await self.puts
            return puts.count >= count ? puts : nil
        }
    }

    package func start() async throws {
        let router = Router()
        router.put("/v3/group_channels/:channel/messages/:message") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            let json = (try? JSONValue.parse(Array(body.readableBytesView))) ?? .null
            let answer = await self.record(
                Put(
                    path: request.uri.path, apiToken: request.headers[.init("Api-Token")!],
                    claim: request.headers[.init("DeskKit-Claim")!], body: json, at: .now))
            // An API's latency: time the answer takes, which no event stands for (a hang is a gate).
            if answer.delay > .zero { try await Task.sleep(for: answer.delay) }
            await answer.hold?.wait()
            var headers = HTTPFields()
            if let retryAfter = answer.retryAfter { headers[.retryAfter] = retryAfter }
            return Response(
                status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        let server = try await GracefulServer.start { listening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { listening($0.localAddress?.port ?? 0) }, logger: GracefulServer.quietLogger)
        }
        self.server = server
        baseURL = server.baseURL
    }

    /// Shuts the server down gracefully (``GracefulServer``): what it accepted is answered.
    package func stop() async { await server?.stop() }
}
