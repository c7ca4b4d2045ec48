import Clocks
import DeskKitJobStore
import DeskKitModel
import DeskKitPageServer
import DeskKitPreview
import DeskKitServer
import DeskKitServerTestSupport
import DeskKitTestSupport
import DeskKitTime
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// The enrichment server in process (Hummingbird's test client), against a fake Sendbird Platform API
/// and a page server, both real servers on 127.0.0.1.
@Suite("Enrichment server")
struct EnrichmentServerTests {
    @Test func verdictNamesWhyAWebhookIsIgnored() throws {
        let previews = PreviewService()
        func verdict(_ body: [UInt8]) throws -> WebhookVerdict {
            WebhookVerdict.decide(try #require(SendbirdWebhook.decode(body).value), previews: previews)
        }
        let update = try verdict(
            ServerFixtures.webhook(category: SendbirdWebhook.messageUpdate, text: "https://example.com"))
        #expect(update == .ignore(.category(SendbirdWebhook.messageUpdate)))
        #expect(update != .ignore(.category("group_channel:message_delete")))
        #expect(try verdict(ServerFixtures.webhook(text: "no links here")) == .ignore(.noLinks))
        #expect(
            try verdict(ServerFixtures.webhook(text: "https://example.com", type: "ADMM")) == .ignore(.notUserMessage))
        #expect(WebhookVerdict.IgnoreReason.noLinks.description == "no links")
        let job = try #require(try verdict(ServerFixtures.webhook(id: 7, text: "see https://example.com/a")).job)
        #expect(job.messageID == 7 && job.links == ["https://example.com/a"])
    }

    @Test func signatureIsHexHMACSHA256() {
        // RFC 4231, test case 2.
        let mac = WebhookSignature.sign(Array("what do ya want for nothing?".utf8), token: "Jefe")
        #expect(mac == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(WebhookSignature.isValid(mac, body: Array("what do ya want for nothing?".utf8), token: "Jefe"))
        #expect(
            WebhookSignature.isValid(mac.uppercased(), body: Array("what do ya want for nothing?".utf8), token: "Jefe"))
        #expect(!WebhookSignature.isValid(mac, body: Array("what do ya want for nothing!".utf8), token: "Jefe"))
        #expect(
            !WebhookSignature.isValid(
                String(mac.dropLast(2)), body: Array("what do ya want for nothing?".utf8), token: "Jefe"))
        #expect(
            !WebhookSignature.isValid(
                "zz" + mac.dropFirst(2), body: Array("what do ya want for nothing?".utf8), token: "Jefe"))
        #expect(!WebhookSignature.isValid(nil, body: [], token: "Jefe"))
    }

    @Test func webhookWithoutOrWithWrongSignatureIs401() async throws {
        try await ServerFixtures.withServer { client, fake, _, _ async throws in
            let body = ServerFixtures.webhook(text: "see https://example.com")
            #expect(try await ServerFixtures.post(client, body, signature: .some(nil)).0 == .unauthorized)
            #expect(
                try await ServerFixtures.post(client, body, signature: WebhookSignature.sign(body, token: "other")).0
                    == .unauthorized)
            #expect(try await ServerFixtures.post(client, body, signature: "not hex").0 == .unauthorized)
            #expect(await fake.puts.isEmpty)
        }
    }

    @Test func notAWebhookIs400WithTheReason() async throws {
        try await ServerFixtures.withServer { client, _, _, _ async throws in
            let (status, json) = try await ServerFixtures.post(client, Array(#"{"payload": {}}"#.utf8))
            #expect(status == .badRequest)
            #expect(json["error"]?.stringValue?.contains("$.category") == true)
            let (status2, json2) = try await ServerFixtures.post(
                client, Array(#"{"category": "group_channel:message_send", "payload": {"message_id": 1}}"#.utf8))
            #expect(status2 == .badRequest)
            #expect(json2["error"]?.stringValue?.contains("channel") == true)
            #expect(try await ServerFixtures.post(client, Array("[1,2".utf8)).0 == .badRequest)
        }
    }

    @Test func bodyOverTheCapIs413() async throws {
        try await ServerFixtures.withServer({ $0.maxBodyBytes = 2048 }) { client, _, _, _ async throws in
            let body = ServerFixtures.webhook(text: "https://example.com " + String(repeating: "x", count: 4000))
            #expect(try await ServerFixtures.post(client, body).0 == .contentTooLarge)
        }
    }

    // MARK: Enrichment

    @Test func messageWithALinkGetsItsPreviewOnceAndUpdatesAreIgnored() async throws {
        try await ServerFixtures.withServer { client, fake, pages, _ async throws in
            let text = "Where is my parcel? \(pages.baseURL)/tracking/1138"
            let body = ServerFixtures.webhook(text: text)
            let (status, json) = try await ServerFixtures.post(client, body)
            #expect(status == .ok)
            #expect(json["status"] == "queued")
            // Sendbird delivers again: processed once.
            #expect(try await ServerFixtures.post(client, body).1["status"] == "duplicate")
            let puts = try await fake.waitForPuts(1)
            try #require(puts.count == 1)
            #expect(puts[0].path == "/v3/group_channels/sendbird_group_channel_1138/messages/1001")
            #expect(puts[0].apiToken == ServerFixtures.token)
            #expect(puts[0].body["custom_type"] == "SENDBIRD_DESK_RICH_MESSAGE")
            #expect(puts[0].body["message_type"] == "MESG")
            #expect(puts[0].body["message"] == .string(text))
            let data = try #require(puts[0].body["data"]?.stringValue)
            let decoded = DeskPayload.decode(data, customType: DeskPayload.richMessageCustomType)
            guard case .urlPreview(let preview) = decoded.content else {
                Issue.record("data is not a URL preview: \(data)")
                return
            }
            #expect(preview.title == "Parcel 1138 is on its way")
            #expect(preview.image == "\(pages.baseURL)/map.png")

            // The update DeskKit caused, and a message that already carries a preview: never enriched.
            let update = ServerFixtures.webhook(
                category: SendbirdWebhook.messageUpdate, text: text, customType: "SENDBIRD_DESK_RICH_MESSAGE",
                data: data)
            #expect(
                try await ServerFixtures.post(client, update).1["reason"] == "category group_channel:message_update")
            let withPreview = ServerFixtures.webhook(
                id: 1002, text: text, customType: "SENDBIRD_DESK_RICH_MESSAGE", data: data)
            #expect(try await ServerFixtures.post(client, withPreview).1["reason"] == "already has a preview")
            #expect(
                try await ServerFixtures.post(client, ServerFixtures.webhook(id: 1003, text: "no links here")).1[
                    "reason"] == "no links")
            // An e-mail address is a link but has no page to preview.
            #expect(
                try await ServerFixtures.post(
                    client, ServerFixtures.webhook(id: 1005, text: "write to help@example.com")
                ).1["reason"]
                    == "no links")
            #expect(
                try await ServerFixtures.post(client, ServerFixtures.webhook(id: 1004, text: text, type: "ADMM")).1[
                    "reason"]
                    == "not a user message")
            try await until("the queue idle") { try await ServerFixtures.idle(client) }
            #expect(await fake.puts.count == 1, "nothing ignored was queued")
        }
    }

    @Test func platformAPIErrorsAreRetriedWithBackoffAndRetryAfter() async throws {
        try await ServerFixtures.withServer { client, fake, pages, _ async throws in
            await fake.answer(.init(status: 500), .init(status: 429, retryAfter: "1"))
            try await ServerFixtures.post(client, ServerFixtures.webhook(text: "\(pages.baseURL)/a"))
            let puts = try await fake.waitForPuts(3)
            try #require(puts.count == 3)
            #expect(puts[2].at - puts[1].at >= .milliseconds(950), "Retry-After: 1 is honoured")
            let metrics = try await ServerFixtures.metrics(client, once: #"deskkit_jobs_total{outcome="updated"} 1"#)
            #expect(try await ServerFixtures.idle(client))
            #expect(await fake.puts.count == 3, "no attempt after the success")
            #expect(metrics.contains(#"deskkit_platform_api_requests_total{status="500"} 1"#))
            #expect(metrics.contains(#"deskkit_platform_api_requests_total{status="429"} 1"#))
            #expect(metrics.contains(#"deskkit_jobs_total{outcome="retry_scheduled"} 2"#))
            #expect(metrics.contains(#"deskkit_jobs_total{outcome="updated"} 1"#))
        }
    }

    /// A Platform API call's limit (`apiTimeout`) counts on the server's clock, not on AsyncHTTPClient's: an API that
    /// never answers holds the job until the test moves the clock to the limit — an hour, which real time never
    /// reaches within the test — and the attempt then fails as one to retry.
    @Test func aCallEndsAtItsLimitOnTheServersClock() async throws {
        let clock = TestClock()
        let answer = Gate()
        try await ServerFixtures.withServer(
            {
                $0.apiTimeout = .seconds(3600)
                // Nothing else comes due while the clock moves the hour: no poll, renewal or retry.
                $0.queue.pollInterval = .seconds(86400)
                $0.queue.lease = .seconds(86400)
                $0.retry.firstDelay = .seconds(86400)
            }, clock: ServiceClock(clock)
        ) { client, fake, pages, _ async throws in
            await fake.hold(answer)
            try await ServerFixtures.post(client, ServerFixtures.webhook(id: 1, text: "\(pages.baseURL)/a"))
            _ = try await fake.waitForPuts(1)
            await clock.advance(by: .seconds(3600))
            let metrics = try await ServerFixtures.metrics(
                client, once: #"deskkit_jobs_total{outcome="retry_scheduled"} 1"#)
            #expect(metrics.contains(#"deskkit_platform_api_requests_total{status="error"} 1"#), "\(metrics)")
            answer.open()
        }
    }

    /// Retries end at the horizon of the server's clock (a `TestClock` the test moves a second at a time, so
    /// however long a loaded machine takes over each try, the horizon is the clock's 4 s), and a 404 is not retried.
    @Test func retriesEndAtTheHorizonAndClientErrorsAreNotRetried() async throws {
        let clock = TestClock()
        /// Moves the clock a second while no job runs, and says whether `failed` jobs have failed. A job that runs
        /// fetches its page and calls the API in real time, under limits counted on this clock (the fetch's 10 s,
        /// the lease): moved then, the clock would end them (under stress-ng, a fetch of 10 ms saw the clock move
        /// 10 s, and the job ended without a preview instead of failing).
        @Sendable func moveWhileIdle(_ client: TestClientProtocol, until failed: Int) async throws -> Bool {
            let jobs = try await ServerFixtures.jobs(client)
            if jobs["running"] == 0 { await clock.advance(by: .seconds(1)) }
            return jobs["failed"]?.int64Value == Int64(failed)
        }
        try await ServerFixtures.withServer({ $0.retry.horizon = .seconds(4) }, clock: ServiceClock(clock)) {
            client, fake, pages, _ async throws in
            await fake.down(until: .now + .seconds(3600))
            try await ServerFixtures.post(client, ServerFixtures.webhook(id: 1, text: "\(pages.baseURL)/a"))
            try await until("the job failed at the horizon") { try await moveWhileIdle(client, until: 1) }
            _ = try await ServerFixtures.metrics(client, once: #"deskkit_jobs_total{outcome="api_failed"} 1"#)
            let tries = await fake.puts.count
            #expect(tries >= 2, "retried within the horizon")
            try await until("the queue idle") { try await ServerFixtures.idle(client) }
            #expect(await fake.puts.count == tries, "and not after it")
            await fake.down(until: .now)
            await fake.answer(.init(status: 404))
            try await ServerFixtures.post(client, ServerFixtures.webhook(id: 2, text: "\(pages.baseURL)/b"))
            // The clock moves on meanwhile: a wait the first job's outage left on it (the queue's wait for a job
            // due later) ends.
            try await until("the 404's job failed") { try await moveWhileIdle(client, until: 2) }
            _ = try await ServerFixtures.metrics(client, once: #"deskkit_jobs_total{outcome="api_failed"} 2"#)
            try await until("the queue idle") { try await ServerFixtures.idle(client) }
            #expect(await fake.puts.count == tries + 1, "one attempt for the 404")
        }
    }

    @Test func fullQueueAnswers503SoSendbirdRetries() async throws {
        try await ServerFixtures.withServer({
            $0.memory.capacity = 2
            $0.queue.workers = 1
            $0.queue.shutdownGrace = .milliseconds(100)
        }) { client, fake, pages, _ async throws in
            await fake.hold(Gate())
            #expect(
                try await ServerFixtures.post(client, ServerFixtures.webhook(id: 1, text: "\(pages.baseURL)/a")).1[
                    "status"] == "queued")
            _ = try await fake.waitForPuts(1)  // the worker is busy with message 1
            #expect(
                try await ServerFixtures.post(client, ServerFixtures.webhook(id: 2, text: "\(pages.baseURL)/b")).1[
                    "status"] == "queued")
            let (status, json) = try await ServerFixtures.post(
                client, ServerFixtures.webhook(id: 3, text: "\(pages.baseURL)/c"))
            #expect(status == .serviceUnavailable)
            #expect(json["error"]?.stringValue?.contains("full") == true)
            // Refused, so not remembered: the retry is accepted once there is room.
            #expect(
                try await ServerFixtures.post(client, ServerFixtures.webhook(id: 3, text: "\(pages.baseURL)/c")).0
                    == .serviceUnavailable)
        }
    }

    @Test func shutdownHandsBackWorkInFlight() async throws {
        let handedBack = Recorder()
        try await ServerFixtures.withServer(
            {
                $0.queue.workers = 1
                $0.queue.shutdownGrace = .milliseconds(300)
            }, handBack: { await handedBack.handBack($0) }
        ) { client, fake, pages, _ async throws in
            await fake.hold(Gate())
            try await ServerFixtures.post(client, ServerFixtures.webhook(id: 7, text: "\(pages.baseURL)/a"))
            try await ServerFixtures.post(client, ServerFixtures.webhook(id: 8, text: "\(pages.baseURL)/b"))
            _ = try await fake.waitForPuts(1)
        }
        let ids = await handedBack.handedBack
        #expect(ids == [8, 7], "the queued job and the running one are handed back, not \(ids)")
    }

    /// A page that never answers must not hold shutdown to the fetch's limit: cancellation reaches the fetch at the
    /// grace's end, and the job is handed back. On a clock the test moves: once the queue has said the grace began,
    /// the clock moves the grace's 500 ms, far short of the fetch's 10 s — which cannot be what ended the job.
    @Test(.timeLimit(.minutes(1))) func shutdownCancelsAFetchThatHangs() async throws {
        let clock = TestClock()
        let handedBack = Recorder()
        let records = LogRecords()
        let logger = Logger(label: "capture") { _ in CapturingLogHandler(records: records) }
        let mover = Mutex<Task<Void, any Error>?>(nil)
        let begun = "stopping: running jobs have the rest of the shutdown grace"
        try await ServerFixtures.withServer(
            {
                $0.queue.workers = 1
                $0.queue.shutdownGrace = .milliseconds(500)
                // Nothing else comes due when the clock moves: no poll or lease renewal.
                $0.queue.pollInterval = .seconds(86400)
                $0.queue.lease = .seconds(86400)
            }, logger: logger, handBack: { await handedBack.handBack($0) }, clock: ServiceClock(clock)
        ) { client, fake, pages, _ async throws in
            try await ServerFixtures.post(client, ServerFixtures.webhook(id: 9, text: "\(pages.baseURL)/silent"))
            try await until("the worker waiting for the page") { try await ServerFixtures.jobs(client)["running"] == 1 }
            // Shutdown begins when this body returns.
            mover.withLock {
                $0 = Task {
                    try await until("the shutdown grace begun") {
                        records.lines.contains { $0.contains(begun) }
                    }
                    await clock.advance(by: .milliseconds(500))
                }
            }
        }
        try await #require(mover.withLock { $0 }).value
        #expect(await handedBack.handedBack == [9])
        #expect(
            records.lines.contains { $0.contains(begun) && $0.contains("grace=0.5 seconds") })
    }

    @Test func shutdownFinishesQueuedWorkWithinTheGrace() async throws {
        let handedBack = Recorder()
        // A grace far longer than the work: shutdown ends when the queue is empty, not at the grace, and a
        // machine loaded by the whole suite (CI) still finishes three fetches and PUTs within it.
        let tweak: (inout ServerConfiguration) -> Void = {
            $0.queue.workers = 1
            $0.queue.shutdownGrace = .seconds(60)
        }
        let fake = try await ServerFixtures.withServer(tweak, handBack: { await handedBack.handBack($0) }) {
            client, fake, pages, _ async throws in
            await fake.setDelay(.milliseconds(200))
            for id in Int64(1)...3 {
                try await ServerFixtures.post(client, ServerFixtures.webhook(id: id, text: "\(pages.baseURL)/\(id)"))
            }
        }
        #expect(await handedBack.handedBack.isEmpty)
        #expect(await fake.puts.count == 3)
    }

    // MARK: Other routes

    @Test func previewDecodeHealthAndMetricsRoutes() async throws {
        try await ServerFixtures.withServer { client, _, pages, _ async throws in
            let request = ByteBuffer(string: #"{"text": "see \#(pages.baseURL)/x and \#(pages.baseURL)/missing"}"#)
            let previews = try await client.execute(
                uri: "/v1/preview", method: .post, headers: ServerFixtures.authorized, body: request
            ) { response in
                #expect(response.status == .ok)
                return try JSONValue.parse(String(buffer: response.body))["previews"]?.arrayValue ?? []
            }
            try #require(previews.count == 2)
            #expect(previews[0]["payload"]?["body"]?["title"] == "Parcel 1138 is on its way")
            #expect(previews[1]["error"]?["kind"] == "http_status")
            // The card's image is probed for its size and type.
            #expect(previews[0]["details"]?["image_width"] == 640 && previews[0]["details"]?["image_height"] == 400)
            #expect(previews[0]["details"]?["image_type"] == "png")
            #expect(previews[0]["details"]?["sources"]?["title"] == "page")
            #expect(previews[1]["details"] == .null)
            // A 1×1 pixel is taken off the card, and the details say why.
            let tracked = try await client.execute(
                uri: "/v1/preview", method: .post, headers: ServerFixtures.authorized,
                body: ByteBuffer(string: #"{"url": "\#(pages.baseURL)/pixel"}"#)
            ) {
                try JSONValue.parse(String(buffer: $0.body))["previews"]?.arrayValue?.first
            }
            #expect(tracked?["details"]?["image_dropped"]?.stringValue?.contains("1×1") == true)
            #expect(tracked?["payload"]?["body"]?["image"] == "")
            let one = try await client.execute(
                uri: "/v1/preview", method: .post, headers: ServerFixtures.authorized,
                body: ByteBuffer(string: #"{"url": "\#(pages.baseURL)/y"}"#)
            ) {
                try JSONValue.parse(String(buffer: $0.body))
            }
            #expect(
                one["previews"]?.arrayValue?.first?["data"]?.stringValue?.contains("SENDBIRD_DESK_URL_PREVIEW") == true)
            #expect(
                try await client.execute(
                    uri: "/v1/preview", method: .post, headers: ServerFixtures.authorized,
                    body: ByteBuffer(string: "{}")
                ) {
                    $0.status
                } == .badRequest)

            let lines = #"""
                {"message_id": 1, "type": "MESG", "message": "hi", "data": ""}

                {"message_id": 2, "type": "ADMM", "custom_type": "SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE", "data": "{\"type\": \"TICKET_CLOSE\"}"}
                not json
                """#
            let decoded = try await client.execute(
                uri: "/v1/decode", method: .post, headers: ServerFixtures.authorized, body: ByteBuffer(string: lines)
            ) {
                try String(buffer: $0.body).split(separator: "\n").map { try JSONValue.parse(String($0)) }
            }
            try #require(decoded.count == 3)
            #expect(decoded[0]["kind"] == "plain")
            #expect(decoded[1]["kind"] == "system_message")
            #expect(decoded[1]["visible_to_customer"] == false)
            #expect(decoded[1]["ticket_closed"] == true)
            #expect(decoded[2]["kind"] == "malformed")

            let health = try await client.execute(uri: "/health", method: .get) {
                try JSONValue.parse(String(buffer: $0.body))
            }
            #expect(health["status"] == "ok")
            #expect(health["queue_capacity"] == 10_000)
            for path in ["/no/such/route", "/v1/preview/../x", "/webhooks/sendbird?x=1"] {
                _ = try await client.execute(uri: path, method: .get) { _ in }
            }
            let metrics = try await client.execute(
                uri: "/metrics", method: .get, headers: ServerFixtures.operatorAuthorized
            ) {
                response in
                #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
                return String(buffer: response.body)
            }
            #expect(metrics.contains(#"deskkit_http_requests_total{route="/v1/preview",status="200"} 3"#))
            // Labelled by the route matched, not by the path asked for: paths (and methods) no route has
            // are one label, Hummingbird's `NotFound` (a path that is there asked with another method: 405).
            #expect(metrics.contains(#"deskkit_http_requests_total{route="NotFound",status="404"} 2"#))
            #expect(metrics.contains(#"deskkit_http_requests_total{route="NotFound",status="405"} 1"#))
            #expect(!metrics.contains("no/such") && !metrics.contains("x=1"))
            #expect(metrics.contains(#"deskkit_fetch_errors_total{kind="http_status"} 1"#))
            #expect(metrics.contains("deskkit_preview_fetches_total 4"))
            _ = try await client.execute(
                uri: "/v1/preview", method: .post, headers: ServerFixtures.authorized,
                body: ByteBuffer(string: #"{"url": "\#(pages.baseURL)/y"}"#)
            ) { _ in }
            let again = try await client.execute(
                uri: "/metrics", method: .get, headers: ServerFixtures.operatorAuthorized
            ) {
                String(buffer: $0.body)
            }
            #expect(again.contains("deskkit_preview_cache_hits_total 1"))
            // What the previews hold: the pages cached, no fetch running, the page server's connections kept.
            #expect(again.contains("deskkit_preview_cache_entries 4"), "\(again)")
            #expect(again.contains("deskkit_fetch_hosts_fetching 0"))
            #expect(again.contains("deskkit_fetch_hosts_connected 1"))
            // The process's memory, read at the scrape (this test process's: tens of MiB resident).
            let gauges = Dictionary(
                again.split(separator: "\n").compactMap { line -> (String, Double)? in
                    let parts = line.split(separator: " ")
                    guard parts.count == 2, let value = Double(parts[1]) else { return nil }
                    return (String(parts[0]), value)
                }, uniquingKeysWith: { a, _ in a })
            #expect((gauges["process_resident_memory_bytes"] ?? 0) > 10_000_000, "\(again)")
            #expect((gauges["deskkit_heap_in_use_bytes"] ?? 0) > 1_000_000)
            #expect(gauges["deskkit_heap_free_bytes"] != nil)
        }
    }

    /// `deskkit_http_requests_in_flight` counts a request from its arrival to its answer: a preview of a page that
    /// never answers is counted until its fetch's time limit (on the server's clock, which the test moves) ends it.
    /// A look at `/metrics` counts itself.
    @Test func requestsAreInFlightUntilAnswered() async throws {
        let clock = TestClock()
        try await ServerFixtures.withServer(clock: ServiceClock(clock)) { client, _, pages, _ async throws in
            let held = Task {
                try await client.execute(
                    uri: "/v1/preview", method: .post, headers: ServerFixtures.authorized,
                    body: ByteBuffer(string: #"{"url": "\#(pages.baseURL)/silent"}"#)
                ) {
                    try JSONValue.parse(String(buffer: $0.body))["previews"]?.arrayValue?.first?["error"]?["kind"]
                }
            }
            _ = try await ServerFixtures.metrics(client, once: "deskkit_http_requests_in_flight 2.0")
            // The fetch's whole limit at each look (a move of swift-clocks' `TestClock` awaits some forty tasks at
            // background priority: in the whole suite one took up to 9 s, and a second a look ran out of the minute).
            try await until("the held preview answered") {
                await clock.advance(by: .seconds(10))
                return try await ServerFixtures.metrics(client).contains("deskkit_http_requests_in_flight 1.0")
            }
            #expect(try await held.value == "timeout")
        }
    }

    // MARK: Configuration and logs

    @Test func variablesNoSettingReadsAreNamed() {
        let environment = ["DESKKIT_API_ATTEMPTS": "4", "DESKKIT_PORT": "1", "DESKKIT_WROKERS": "2", "HOME": "/root"]
        #expect(ServerConfiguration.unknownVariables(in: environment) == ["DESKKIT_API_ATTEMPTS", "DESKKIT_WROKERS"])
    }

    @Test func configurationFromFlagsAndEnvironment() throws {
        let c = try ServerConfiguration.resolve(
            flags: ["DESKKIT_PORT": "9000", "DESKKIT_STORE_TIMEOUT": "30", "DESKKIT_FETCH_TIMEOUT": "3"],
            environment: [
                "SENDBIRD_APP_ID": "ABC-123", "SENDBIRD_API_TOKEN": "s3cr3t-T0k3n", "DESKKIT_PORT": "1",
                "DESKKIT_WORKERS": "4",
            ])
        #expect(c.port == 9000)
        #expect(c.queue.workers == 4)
        #expect(c.storeTimeout == .seconds(30))
        #expect(c.fetch.totalTimeout == .seconds(3))
        // Durations with their units; a bare number is seconds.
        let units = try ServerConfiguration.resolve(
            flags: ["DESKKIT_FETCH_TIMEOUT": "10s", "DESKKIT_SHUTDOWN_GRACE": "1500ms", "DESKKIT_RETRY_HORIZON": "2d"],
            environment: ["SENDBIRD_APP_ID": "a", "SENDBIRD_API_TOKEN": "t", "DESKKIT_REFUSAL_TTL": "5m"])
        #expect(units.fetch.totalTimeout == .seconds(10) && units.queue.shutdownGrace == .milliseconds(1500))
        #expect(units.retry.horizon == .seconds(2 * 86400) && units.previews.refusalTTL == .seconds(300))
        let defaults = try ServerConfiguration.resolve(environment: ["SENDBIRD_APP_ID": "a", "SENDBIRD_API_TOKEN": "t"])
        #expect(defaults.storeTimeout == .seconds(5))
        #expect(defaults.fetch.totalTimeout == .seconds(10))
        #expect(c.apiBase == "https://api-abc-123.sendbird.com")
        #expect(!c.description.contains("s3cr3t-T0k3n"))
        func problem(_ env: [String: String]) -> String? {
            do {
                _ = try ServerConfiguration.resolve(environment: env)
                return nil
            } catch { return error.description }
        }
        #expect(problem(["SENDBIRD_APP_ID": "a"])?.hasPrefix("SENDBIRD_API_TOKEN is required") == true)
        #expect(
            problem(["SENDBIRD_API_TOKEN": "t"])?.hasPrefix("SENDBIRD_APP_ID is required unless DESKKIT_API_BASE")
                == true)
        #expect(
            problem(["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a", "DESKKIT_PORT": "70000"])?.hasPrefix(
                "DESKKIT_PORT") == true)
        #expect(
            problem(["SENDBIRD_API_TOKEN": "t", "DESKKIT_API_BASE": "ftp://x"])?.hasPrefix("DESKKIT_API_BASE") == true)
        #expect(problem(["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a/b"])?.hasPrefix("SENDBIRD_APP_ID") == true)
        #expect(
            problem(["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a", "DESKKIT_QUEUE_CAPACITY": "lots"])?.contains(
                "whole number") == true)
        #expect(
            problem(["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a", "DESKKIT_STORE_TIMEOUT": "0"])?.hasPrefix(
                "DESKKIT_STORE_TIMEOUT") == true)
        #expect(
            problem(["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a", "DESKKIT_FETCH_TIMEOUT": "0"])?.hasPrefix(
                "DESKKIT_FETCH_TIMEOUT") == true)
        #expect(
            problem(["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a", "DESKKIT_FETCH_TIMEOUT": "10 s"])
                == #"DESKKIT_FETCH_TIMEOUT "10 s" is not a duration from 1s to 10m (like 500ms, 10s, 5m, 12h or 7d)"#)
        #expect(
            problem(["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a", "DESKKIT_FETCH_TIMEOUT": "11m"])?.hasPrefix(
                #"DESKKIT_FETCH_TIMEOUT "11m" is not a duration"#) == true)
        #expect(defaults.fetch.userAgent == FetchConfiguration.defaultUserAgent)
        let agent = try ServerConfiguration.resolve(
            environment: ["SENDBIRD_APP_ID": "a", "SENDBIRD_API_TOKEN": "t", "DESKKIT_USER_AGENT": "AcmeBot/1.0"])
        #expect(agent.fetch.userAgent == "AcmeBot/1.0")
        #expect(
            problem(["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a", "DESKKIT_USER_AGENT": "a\nb"])
                == "DESKKIT_USER_AGENT is not 1 to 512 printable ASCII characters")
        // oEmbed and image probes: on by default; 0 (or the serve flags --no-oembed, --no-image-probe) turns
        // them off.
        #expect(defaults.previews.oEmbed && defaults.previews.probeImages)
        let plain = try ServerConfiguration.resolve(
            flags: ["DESKKIT_OEMBED": "0"],
            environment: ["SENDBIRD_APP_ID": "a", "SENDBIRD_API_TOKEN": "t", "DESKKIT_IMAGE_PROBE": "no"])
        #expect(!plain.previews.oEmbed && !plain.previews.probeImages)
        #expect(
            problem(["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a", "DESKKIT_OEMBED": "maybe"])
                == #"DESKKIT_OEMBED "maybe" is not 1 or 0"#)
        // Refusals: remembered 10 minutes, bot checks tried again 3 times in an hour; the retries wait at least
        // as long as a refusal is remembered.
        #expect(defaults.previews.refusalTTL == .seconds(600) && defaults.retry.challenge.retries == 3)
        #expect(defaults.retry.challenge.window == .seconds(3600))
        let walls = try ServerConfiguration.resolve(
            flags: ["DESKKIT_REFUSAL_TTL": "120", "DESKKIT_CHALLENGE_RETRIES": "1"],
            environment: ["SENDBIRD_APP_ID": "a", "SENDBIRD_API_TOKEN": "t", "DESKKIT_CHALLENGE_RETRY_WINDOW": "600"])
        #expect(walls.previews.refusalTTL == .seconds(120) && walls.retry.challenge.minimumDelay == .seconds(120))
        #expect(walls.retry.challenge.retries == 1 && walls.retry.challenge.window == .seconds(600))
        #expect(
            problem(["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a", "DESKKIT_CHALLENGE_RETRIES": "50"])?.hasPrefix(
                "DESKKIT_CHALLENGE_RETRIES") == true)
    }

    /// A page that is not the page gets no card: the message stays as it is. A bot check is tried again a
    /// bounded number of times, a login wall and a page with nothing to show are not; all are counted by
    /// kind and provider, and `/v1/preview` says what stood there.
    @Test func wallsGetNoCardAndOnlyBotChecksAreTriedAgain() async throws {
        try await ServerFixtures.withServer({
            $0.retry.challenge.retries = 2
            $0.retry.challenge.window = .milliseconds(300)
            $0.retry.challenge.minimumDelay = .zero
            $0.previews.refusalTTL = .milliseconds(1)
        }) { client, fake, pages, _ async throws in
            #expect(
                try await ServerFixtures.post(
                    client, ServerFixtures.webhook(id: 2001, text: "\(pages.baseURL)/challenge")
                ).0 == .ok)
            #expect(
                try await ServerFixtures.post(
                    client, ServerFixtures.webhook(id: 2002, text: "\(pages.baseURL)/orders/7")
                ).0 == .ok)
            #expect(
                try await ServerFixtures.post(client, ServerFixtures.webhook(id: 2003, text: "\(pages.baseURL)/blank"))
                    .0 == .ok)
            let metrics = try await ServerFixtures.metrics(client, once: #"deskkit_jobs_total{outcome="no_preview"} 3"#)
            #expect(metrics.contains(#"deskkit_jobs_total{outcome="no_preview"} 3"#))
            #expect(metrics.contains(#"deskkit_jobs_total{outcome="challenge_retry"} 2"#), "two retries, then done")
            #expect(metrics.contains(#"deskkit_refusals_total{kind="challenge",provider="cloudflare"} 3"#))
            #expect(metrics.contains(#"deskkit_refusals_total{kind="login_wall",provider=""} 1"#))
            #expect(metrics.contains(#"deskkit_refusals_total{kind="empty_shell",provider=""} 1"#))
            let blank = try await client.execute(
                uri: "/v1/preview", method: .post, headers: ServerFixtures.authorized,
                body: ByteBuffer(string: #"{"url": "\#(pages.baseURL)/blank"}"#)
            ) {
                try JSONValue.parse(String(buffer: $0.body))["previews"]?.arrayValue?.first
            }
            #expect(blank?["error"]?["kind"] == "empty_shell" && blank?["payload"] == .null)
            let answer = try await client.execute(
                uri: "/v1/preview", method: .post, headers: ServerFixtures.authorized,
                body: ByteBuffer(string: #"{"url": "\#(pages.baseURL)/challenge"}"#)
            ) {
                try JSONValue.parse(String(buffer: $0.body))["previews"]?.arrayValue?.first
            }
            #expect(answer?["error"]?["kind"] == "challenge" && answer?["error"]?["provider"] == "cloudflare")
            #expect(answer?["payload"] == .null)
            #expect(await fake.puts.isEmpty, "no card is better than a false one")
        }
    }

    @Test func secretsAreNeverLogged() async throws {
        let records = LogRecords()
        var logger = Logger(label: "capture") { _ in CapturingLogHandler(records: records) }
        logger.logLevel = .trace
        try await ServerFixtures.withServer(logger: logger) { client, fake, pages, _ async throws in
            await fake.answer(.init(status: 500))
            let body = ServerFixtures.webhook(text: "\(pages.baseURL)/a")
            try await ServerFixtures.post(client, body)
            try await ServerFixtures.post(client, body, signature: "00")
            _ = try await fake.waitForPuts(2)
            try await until("the message enriched, logged") {
                records.lines.contains { $0.contains("message enriched") }
            }
        }
        let all = records.lines
        #expect(all.contains { $0.contains("Platform API call failed") })
        #expect(all.contains { $0.contains("message enriched") })
        #expect(!all.contains { $0.contains(ServerFixtures.token) }, "the API token appears in no log line")
    }
}

final class LogRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ s: String) { lock.withLock { storage.append(s) } }
    var lines: [String] { lock.withLock { storage } }
}

struct CapturingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        records.append("\(event.level) \(event.message) \(all.map { "\($0)=\($1)" }.sorted().joined(separator: " "))")
    }
}

@Suite("Durations")
struct DurationTextTests {
    @Test func unitsAndBareSeconds() {
        #expect(DurationText.parse("500ms") == .milliseconds(500))
        #expect(DurationText.parse("10") == .seconds(10) && DurationText.parse("10s") == .seconds(10))
        #expect(DurationText.parse("5m") == .seconds(300) && DurationText.parse("12h") == .seconds(43200))
        #expect(DurationText.parse("7d") == .seconds(7 * 86400))
        #expect(DurationText.parse("1.5s") == .milliseconds(1500) && DurationText.parse("2.5") == .milliseconds(2500))
        // Written back in the largest unit that divides it, and read again as it was.
        for (duration, text) in [
            (Duration.seconds(600), "10m"), (.seconds(20), "20s"), (.seconds(86400), "1d"), (.seconds(7200), "2h"),
            (.milliseconds(1500), "1500ms"), (.zero, "0s"), (.seconds(90), "90s"),
        ] {
            #expect(DurationText.format(duration) == text && DurationText.parse(text) == duration, "\(text)")
        }
        for bad in ["", "s", "ms", "-5s", ".5", "5.", "1.2.3", "5 m", "5y", "5M", "10sec", "99999999999999d", "1e3"] {
            #expect(DurationText.parse(bad) == nil, "\(bad)")
        }
    }
}

@Suite("Settings file")
struct SettingsFileTests {
    static let environment = ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "app"]

    /// Keys named like the flags; flags over the environment over the file.
    @Test func theFileIsTheLowestLayer() throws {
        let file = try SettingsFile(
            parsing: Array(
                #"""
                {"port": 9090, "workers": 8, "store": "memory", "fetch_timeout": "3s", "oembed": false,
                 "api_keys": ["key-one-0123456789abc", "key-two-0123456789abc"], "api_token": "from-the-file",
                 "shutdown_grace": "1500ms", "max_body_bytes": null}
                """#.utf8), path: "deskkit.json")
        let c = try ServerConfiguration.resolve(
            flags: ["DESKKIT_WORKERS": "2"], environment: Self.environment.merging(["DESKKIT_PORT": "9191"]) { $1 },
            file: file)
        #expect(c.port == 9191, "the environment over the file")
        #expect(c.queue.workers == 2, "a flag over the file")
        #expect(c.store == .memory && c.fetch.totalTimeout == .seconds(3) && !c.previews.oEmbed)
        #expect(c.apiKeys.count == 2 && c.queue.shutdownGrace == .milliseconds(1500))
        #expect(c.apiToken == "t", "the environment's token over the file's")
        #expect(c.maxBodyBytes == 256 * 1024, "null leaves the default")
        // A number written as text, a switch as yes/no, a duration as a bare number of seconds.
        let loose = try ServerConfiguration.resolve(
            environment: Self.environment,
            file: SettingsFile(
                parsing: Array(#"{"workers": "8", "image_probe": "no", "job_lease": 45}"#.utf8), path: "l.json"))
        #expect(loose.queue.workers == 8 && !loose.previews.probeImages && loose.queue.lease == .seconds(45))
        let tokenOnlyInFile = try ServerConfiguration.resolve(environment: ["SENDBIRD_APP_ID": "a"], file: file)
        #expect(tokenOnlyInFile.apiToken == "from-the-file")
        #expect(!tokenOnlyInFile.description.contains("from-the-file"), "a secret is never printed")
        #expect(ServerConfiguration.setting("DESKKIT_FETCH_TIMEOUT")?.key == "fetch_timeout")
        #expect(ServerConfiguration.setting("SENDBIRD_API_TOKEN")?.key == "api_token")
    }

    /// Every problem at once, each named by the file and its key.
    @Test func problemsNameTheFileAndTheKey() throws {
        func problems(_ json: String) -> String {
            do {
                let file = try SettingsFile(parsing: Array(json.utf8), path: "d.json")
                _ = try ServerConfiguration.resolve(environment: Self.environment, file: file)
                return ""
            } catch { return error.description }
        }
        #expect(
            problems(#"{"prot": 8080, "workers": 1.5, "api_keys": [1]}"#)
                == "d.json: prot is not a setting of deskkit serve; "
                + "d.json: workers is not a string, a whole number, true or false, or a list of strings; "
                + "d.json: api_keys is a list of something else than strings")
        #expect(problems(#"{"port": 70000}"#) == #"d.json: port "70000" is not a whole number in 0...65535"#)
        #expect(
            problems(#"{"port": "eighty", "oembed": "maybe"}"#)
                == #"d.json: port "eighty" is not a whole number in 0...65535; d.json: oembed "maybe" is not 1 or 0"#)
        #expect(problems(#"{"fetch_timeout": "soon"}"#).hasPrefix(#"d.json: fetch_timeout "soon" is not a duration"#))
        #expect(problems(#"[1, 2]"#) == "d.json is not a JSON object of settings")
        #expect(problems(#"{"port": "#).hasPrefix("d.json is not JSON: "))
        #expect(
            problems(String(repeating: " ", count: SettingsFile.maxBytes + 1))
                == "d.json is over 1048576 bytes: not a settings file")
        #expect(throws: ConfigurationError.self) { try SettingsFile(contentsOf: "/no/such/deskkit.json") }
    }
}
