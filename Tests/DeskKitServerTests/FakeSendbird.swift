import DeskKitModel
import Hummingbird
import Logging
import NIOCore

/// A fake Sendbird Platform API on 127.0.0.1: records every PUT and answers from a script (then 200).
actor FakeSendbird {
    struct Put: Sendable {
        var path: String
        var apiToken: String?
        /// The job's claim token (`DeskKit-Claim`).
        var claim: String?
        var body: JSONValue
        var at: ContinuousClock.Instant
    }

    struct Answer: Sendable {
        var status: Int
        var retryAfter: String?
        var delay: Duration = .zero
    }

    private(set) var puts: [Put] = []
    private var script: [Answer] = []
    private var defaultDelay: Duration = .zero
    private var downUntil: ContinuousClock.Instant?
    private var task: Task<Void, Error>?
    private(set) var baseURL = ""

    func answer(_ answers: Answer...) { script += answers }
    func setDelay(_ delay: Duration) { defaultDelay = delay }
    /// Answers 503 to every PUT until `instant` (an outage), then as before.
    func down(until instant: ContinuousClock.Instant) { downUntil = instant }

    func record(_ put: Put) -> Answer {
        puts.append(put)
        if let downUntil, put.at < downUntil { return Answer(status: 503) }
        return script.isEmpty ? Answer(status: 200, delay: defaultDelay) : script.removeFirst()
    }

    /// Waits until `count` PUTs arrived (at most `timeout`), then returns them.
    func waitForPuts(_ count: Int, timeout: Duration = .seconds(10)) async throws -> [Put] {
        let deadline = ContinuousClock.now + timeout
        while puts.count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return puts
    }

    func start() async throws {
        let router = Router()
        router.put("/v3/group_channels/:channel/messages/:message") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            let json = (try? JSONValue.parse(Array(body.readableBytesView))) ?? .null
            let answer = await self.record(
                Put(
                    path: request.uri.path, apiToken: request.headers[.init("Api-Token")!],
                    claim: request.headers[.init("DeskKit-Claim")!], body: json, at: .now))
            if answer.delay > .zero { try await Task.sleep(for: answer.delay) }
            var headers = HTTPFields()
            if let retryAfter = answer.retryAfter { headers[.retryAfter] = retryAfter }
            return Response(
                status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "fake-sendbird")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var ports = stream.makeAsyncIterator()
        baseURL = "http://127.0.0.1:\(await ports.next() ?? 0)"
    }

    func stop() { task?.cancel() }
}
