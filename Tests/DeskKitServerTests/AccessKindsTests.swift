import DeskKitJobStore
import DeskKitModel
import DeskKitPageServer
import DeskKitServer
import DeskKitServerTestSupport
import DeskKitTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Who may do what: client keys open what a chat backend needs, operator keys the console's routes and the
/// metrics, a scraper's key the metrics only; a key of another kind is a 403 that says which kind the route needs.
/// Every operator action that changes something is in the audit trail by the key's name; customers' links are
/// masked in the lists and the logs; the inspector says no more than it needs.
@Suite("Kinds of key, the audit trail, links kept private")
struct AccessKindsTests {
    static let client = ["Bearer \(ServerFixtures.apiKey)"]
    static let `operator` = ["Bearer \(ServerFixtures.operatorKey)"]
    static let scraperKey = "scraper-key-0123456789abcdef"

    /// The console's routes, each with a request a client key must not get through.
    static let operatorRoutes: [(HTTPRequest.Method, String)] = [
        (.get, "/v1/queue"), (.get, "/v1/jobs"), (.post, "/v1/jobs/retry"), (.post, "/v1/jobs/1/retry"),
        (.get, "/v1/refusals"), (.get, "/v1/inspect?url=https%3A%2F%2Fexample.com%2F"),
        (.delete, "/v1/previews?url=https%3A%2F%2Fexample.com%2F"),
    ]

    static func answer(
        _ client: TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, body: String = "",
        authorization: [String]
    ) async throws -> (HTTPResponse.Status, JSONValue, String?) {
        var headers: HTTPFields = [.contentType: "application/json"]
        for value in authorization { headers.append(.init(name: .authorization, value: value)) }
        return try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: body)) {
            ($0.status, (try? JSONValue.parse(String(buffer: $0.body))) ?? .null, $0.headers[.wwwAuthenticate])
        }
    }

    /// A client key gets a 403 on every route of the operator's, with a problem that says which kind the route
    /// needs and which kind (and name) the key is; an operator key opens them and the client's routes; a scraper's
    /// key opens `/metrics` and nothing else.
    @Test func eachKindOpensItsRoutesAndAnotherKindIsA403() async throws {
        try await ServerFixtures.withServer({ $0.metricsKeys = try! APIKeys(parsing: "prometheus:\(Self.scraperKey)") })
        {
            client, _, _, _ in
            for (method, uri) in Self.operatorRoutes {
                let (status, problem, challenge) = try await Self.answer(
                    client, method, uri, authorization: Self.client)
                #expect(status == .forbidden, "\(method) \(uri)")
                #expect(problem["needs"] == ["operator"], "\(uri): \(problem)")
                #expect(problem["key"] == ["name": "key 1", "kind": "client"])
                #expect(problem["error"]?.stringValue?.contains("needs an operator key") == true)
                #expect(challenge?.contains(#"error="insufficient_scope""#) == true)
                #expect(!problem.description.contains(ServerFixtures.apiKey), "never the key")
                let opened = try await Self.answer(client, method, uri, authorization: Self.operator).0
                #expect(opened != .forbidden && opened != .unauthorized, "\(method) \(uri): \(opened)")
            }
            let metrics = try await Self.answer(client, .get, "/metrics", authorization: Self.client)
            #expect(metrics.0 == .forbidden && metrics.1["needs"] == ["operator", "metrics"])
            for key in [Self.operator, ["Bearer \(Self.scraperKey)"]] {
                #expect(try await Self.answer(client, .get, "/metrics", authorization: key).0 == .ok)
            }
            let decode = #"{"message_id": 1, "type": "MESG", "message": "hi", "data": ""}"#
            #expect(
                try await Self.answer(client, .post, "/v1/decode", body: decode, authorization: Self.operator).0 == .ok)
            let scraper = try await Self.answer(
                client, .post, "/v1/decode", body: decode, authorization: ["Bearer \(Self.scraperKey)"])
            #expect(scraper.0 == .forbidden && scraper.1["key"] == ["name": "prometheus", "kind": "metrics"])
            #expect(
                try await Self.answer(client, .get, "/v1/queue", authorization: ["Bearer \(Self.scraperKey)"]).0
                    == .forbidden)
        }
    }

    /// A key is one kind only: a list that shares a key with another is a problem when the configuration is read,
    /// named without the key; names are checked too.
    @Test func aKeyIsOneKindOnly() throws {
        let key = "shared-key-0123456789abc"
        let base = ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "a"]
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(
                environment: base.merging(["DESKKIT_API_KEYS": key, "DESKKIT_OPERATOR_KEYS": "ops:\(key)"]) { $1 })
        }
        do {
            _ = try ServerConfiguration.resolve(
                environment: base.merging(["DESKKIT_API_KEYS": key, "DESKKIT_METRICS_KEYS": key]) { $1 })
        } catch {
            #expect(error.description.contains("both a client key and a metrics key"))
            #expect(!error.description.contains(key))
        }
        #expect(throws: APIKeysError.self) { try APIKeys(parsing: ":\(key)") }
        #expect(throws: APIKeysError.self) { try APIKeys(parsing: "a b:\(key)") }
        #expect(throws: APIKeysError.self) { try APIKeys(parsing: "ops:\(key),ops:\(key)x") }
        #expect(throws: APIKeysError.self) { try APIKeys(parsing: "\(key),\(key)") }
        let named = try APIKeys(parsing: "alice@desk:\(key),\(key)2", kind: "operator")
        #expect(named.match(Array(key.utf8))?.name == "alice@desk")
        #expect(named.match(Array("\(key)2".utf8))?.name == "operator key 2")
        #expect(named.match(Array("alice@desk:\(key)".utf8)) == nil, "the name is not part of the key")
    }

    /// Every operator action that changes something is one log line with the key's name, the action, what it
    /// touched and the time, counted by action; retrying the failed jobs is bounded per call and says whether there
    /// are more.
    @Test func operatorActionsAreAudited() async throws {
        let records = LogRecords()
        let logger = Logger(label: "capture") { _ in CapturingLogHandler(records: records) }
        try await ServerFixtures.withServer(logger: logger) { client, fake, pages, _ in
            // The Platform API refuses every update for good: three jobs fail at once.
            for _ in 1...3 { await fake.answer(.init(status: 400)) }
            for id in Int64(71)...73 {
                _ = try await ServerFixtures.post(
                    client, ServerFixtures.webhook(id: id, text: "\(pages.baseURL)/reset?token=secret-\(id)"))
            }
            _ = try await ConsoleRoutesTests.until("three failed", client, "/v1/jobs?state=failed") {
                $0["jobs"]?.arrayValue?.count == 3
            }
            let first = try await Self.answer(client, .post, "/v1/jobs/retry?limit=2", authorization: Self.operator)
            #expect(first.0 == .ok && first.1 == ["retried": 2, "more": true])
            let rest = try await Self.answer(client, .post, "/v1/jobs/retry?limit=2", authorization: Self.operator)
            #expect(rest.0 == .ok && rest.1 == ["retried": 1, "more": false])
            #expect(
                try await Self.answer(client, .post, "/v1/jobs/retry?limit=0", authorization: Self.operator).0
                    == .badRequest)
            let url = "\(pages.baseURL)/reset?token=secret-71#top"
            let query = "/v1/previews?url=\(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            #expect(try await Self.answer(client, .delete, query, authorization: Self.operator).0 == .ok)
            let metrics = try await client.execute(
                uri: "/metrics", method: .get, headers: ServerFixtures.operatorAuthorized
            ) { String(buffer: $0.body) }
            #expect(metrics.contains(#"deskkit_operator_actions_total{action="retry_failed"} 2"#))
            #expect(metrics.contains(#"deskkit_operator_actions_total{action="forget"} 1"#))
        }
        let audit = records.lines.filter { $0.contains("operator action") }
        #expect(audit.count == 3, "\(audit)")
        #expect(audit.allSatisfy { $0.hasPrefix("notice") && $0.contains("operator=ops") && $0.contains("at=") })
        #expect(audit[0].contains("action=retry_failed") && audit[0].contains("count=2"))
        #expect(audit[0].contains("message_ids=73,72") || audit[0].contains("message_ids=72,73"), "\(audit[0])")
        #expect(audit[2].contains("action=forget") && audit[2].contains("token=REDACTED"), "\(audit[2])")
        #expect(!records.lines.contains { $0.contains("secret-7") }, "no customer's token in a log line")
        #expect(!records.lines.contains { $0.contains(ServerFixtures.operatorKey) }, "no key in a log line")
    }

    /// The console's lists and the logs show a link's scheme, host and path, its query values masked, no fragment;
    /// the inspector shows it whole from its job.
    @Test func customersLinksStayPrivate() async throws {
        let records = LogRecords()
        let logger = Logger(label: "capture") { _ in CapturingLogHandler(records: records) }
        try await ServerFixtures.withServer(logger: logger) { client, fake, pages, _ in
            let reset = "\(pages.baseURL)/reset?token=secret-abc&user=jo#frag"
            // A link the guard refuses: no card for it, an example in the refusals' list.
            let wall = "http://10.0.0.7/orders/7?invite=secret-def"
            _ = try await ServerFixtures.post(
                client, ServerFixtures.webhook(id: 81, text: "reset: \(reset) and \(wall)"))
            _ = try await fake.waitForPuts(1)
            let jobs = try await ConsoleRoutesTests.until("job 81 listed", client, "/v1/jobs") {
                $0["jobs"]?.arrayValue?.first?["state"] == "done"
            }
            let links = jobs["jobs"]?.arrayValue?.first?["links"]
            #expect(
                links == [
                    .string("\(pages.baseURL)/reset?token=REDACTED&user=REDACTED"),
                    .string("http://10.0.0.7/orders/7?invite=REDACTED"),
                ])
            let refusals = try await ConsoleRoutesTests.until("the wall listed", client, "/v1/refusals") {
                $0["recent"]?.arrayValue?.isEmpty == false
            }
            let example = try #require(refusals["recent"]?.arrayValue?.first)
            #expect(example["url"] == .string("http://10.0.0.7/orders/7?invite=REDACTED"))
            #expect(example["link"] == 1 && example["message_id"] == 81)
            #expect(!refusals.description.contains("secret-"))
            // The operator inspects the link whole, from its job.
            let (status, story, _) = try await Self.answer(
                client, .get, "/v1/inspect?message_id=81&link=1", authorization: Self.operator)
            #expect(status == .ok && story["url"] == .string(wall))
            #expect(story["refusal"]?["kind"] == "blocked_address")
            #expect(
                try await Self.answer(client, .get, "/v1/inspect?message_id=81&link=2", authorization: Self.operator).0
                    == .notFound)
            #expect(
                try await Self.answer(client, .get, "/v1/inspect?message_id=9", authorization: Self.operator).0
                    == .notFound)
        }
        #expect(records.lines.contains { $0.contains("message enriched") && $0.contains("token=REDACTED") })
        #expect(!records.lines.contains { $0.contains("secret-") }, "no customer's token in a log line")
    }

    /// The inspector: a typed URL reaches public addresses only, even on a server that may fetch private ones; a
    /// message's own link is fetched as the queue fetched it; the address a refused host resolved to is withheld
    /// unless asked for; inspections keep a rate of their own.
    @Test func theInspectorSaysNoMoreThanItNeeds() async throws {
        let page = try await PageServer.start(host: "127.0.0.3") { _ in
            .html(#"<title>Intranet wiki</title><meta property="og:title" content="Team handbook">"#)
        }
        try await page.scoped {
            try await ServerFixtures.withServer({
                $0.fetch.allowPrivateAddresses = true
                $0.inspectRate = .init(perSecond: 1, burst: 3)
            }) { client, fake, _, _ in
                let intranet = "http://intranet.localhost:\(page.port)/handbook"
                let typed = "http://127.0.0.3:\(page.port)/handbook"
                let (status, story, _) = try await Self.answer(
                    client, .get,
                    "/v1/inspect?url=\(typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                    authorization: Self.operator)
                #expect(status == .ok && story["refusal"]?["kind"] == "blocked_address", "\(story["refusal"] ?? .null)")
                // The same page as a message's link: the queue fetched it, and so does its inspection.
                _ = try await ServerFixtures.post(client, ServerFixtures.webhook(id: 91, text: typed))
                _ = try await fake.waitForPuts(1)
                let byJob = try await Self.answer(
                    client, .get, "/v1/inspect?message_id=91", authorization: Self.operator)
                #expect(byJob.1["refusal"] == .null && byJob.1["card"]?["body"]?["title"] == "Team handbook")
                // Inspections keep a rate of their own (a burst of 3, then 1 a second): eight at once meet it, however
                // slowly a loaded machine answers each (one after another, they could each take the second it refills).
                let named = "/v1/inspect?url=\(intranet.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
                let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, JSONValue, String?).self) {
                    group in
                    for _ in 1...8 {
                        group.addTask { try await Self.answer(client, .get, named, authorization: Self.operator) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.allSatisfy { $0.0 == .ok || $0.0 == .tooManyRequests }, "\(answers.map(\.0))")
                let limited = answers.first { $0.0 == .tooManyRequests }
                #expect(limited?.1["error"]?.stringValue?.contains("inspections a second") == true)
                #expect(try await Self.answer(client, .get, "/v1/queue", authorization: Self.operator).0 == .ok)
            }
        }
        // The address a refused host resolved to (2130706434 is 127.0.0.2): withheld unless asked for.
        try await ServerFixtures.withServer { client, _, _, _ in
            let refused = "/v1/inspect?url=http%3A%2F%2F2130706434%2F"
            let withheld = try await Self.answer(client, .get, refused, authorization: Self.operator).1
            let detail = withheld["refusal"]?["detail"]?.stringValue ?? ""
            #expect(detail.contains("(address withheld)") && !detail.contains("127.0.0.2"), "\(detail)")
            let hop = try #require(withheld["hops"]?.arrayValue?.first)
            #expect(hop["address"]?["detail"]?.stringValue?.contains("(address withheld)") == true, "\(hop)")
            let shown = try await Self.answer(client, .get, refused + "&addresses=1", authorization: Self.operator).1
            #expect(shown["refusal"]?["detail"]?.stringValue?.contains("127.0.0.2") == true)
        }
    }
}
