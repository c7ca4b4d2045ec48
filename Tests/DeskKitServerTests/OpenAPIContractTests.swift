import DeskKitJobStore
import DeskKitModel
import DeskKitServer
import DeskKitServerTestSupport
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// The OpenAPI document (`Sources/DeskKitServer/openapi.json`) and the routes agree: the server serves the
/// document, every route it has is in it, and each answer the tests can draw from a route — success, every
/// refusal — has a status, a content type and a body the document gives that operation. schemathesis fuzzes
/// the same agreement against a running `deskkit serve` (Scripts/api-fuzz.sh, in CI).
@Suite("OpenAPI contract")
struct OpenAPIContractTests {
    /// One request and the operation it goes to.
    struct Call {
        var method: HTTPRequest.Method
        var path: String
        var headers: HTTPFields = [:]
        var body: String?
        /// The operation's path in the document, when it has parameters (`/images/{signature}/{url}`).
        var operation: String?
        /// The document's path of the operation.
        var documented: String { operation ?? path.prefix { $0 != "?" }.description }
    }

    /// The image proxy's signer in these tests.
    static let signer = try! ImageURLSigner(keys: "proxy-key-0123456789", publicURL: "https://media.example.com")

    /// The operator's key: it opens every keyed route.
    static let key = ServerFixtures.operatorKey
    static let json: HTTPFields = [.authorization: "Bearer \(key)", .contentType: "application/json"]
    /// A client key, on the routes it opens and on the operator's (403).
    static let client: HTTPFields = [
        .authorization: "Bearer \(ServerFixtures.apiKey)", .contentType: "application/json",
    ]

    static func signed(_ body: String, as contentType: String = "application/json") -> HTTPFields {
        [
            .contentType: contentType,
            .init("x-sendbird-signature")!: WebhookSignature.sign(Array(body.utf8), token: ServerFixtures.token),
        ]
    }

    /// Requests meant to draw every answer the document lists, but 429 and 503 (the access and shutdown
    /// tests draw those).
    static let calls: [Call] = {
        let webhook = #"{"category": "group_channel:channel_create"}"#
        let message =
            #"{"category": "group_channel:message_send", "payload": {"message_id": 1, "message": "no link"}, "channel": {"channel_url": "c"}}"#
        return [
            Call(method: .get, path: "/health"),
            Call(method: .get, path: "/openapi.yaml"),
            Call(method: .get, path: "/openapi.json"),
            Call(method: .get, path: "/schemas/desk-data.json", operation: "/schemas/{file}"),
            Call(method: .get, path: "/schemas/no-such.json", operation: "/schemas/{file}"),
            Call(method: .get, path: "/schemas/desk-data", operation: "/schemas/{file}"),
            Call(method: .get, path: "/metrics", headers: [.authorization: "Bearer \(key)"]),
            Call(method: .get, path: "/metrics"),
            Call(method: .post, path: "/webhooks/sendbird", headers: signed(webhook), body: webhook),
            Call(method: .post, path: "/webhooks/sendbird", headers: signed(message), body: message),
            Call(method: .post, path: "/webhooks/sendbird", headers: signed("[1]"), body: "[1]"),
            Call(method: .post, path: "/webhooks/sendbird", headers: [.contentType: "application/json"], body: webhook),
            Call(
                method: .post, path: "/webhooks/sendbird",
                headers: signed(webhook, as: "text/plain"), body: webhook),
            // curl's -d and URLRequest send this type when told none: read as JSON.
            Call(
                method: .post, path: "/webhooks/sendbird",
                headers: signed(webhook, as: "application/x-www-form-urlencoded"), body: webhook),
            Call(
                method: .post, path: "/webhooks/sendbird", headers: signed(""),
                body: String(repeating: " ", count: 300_000)),
            Call(method: .post, path: "/v1/preview", headers: json, body: #"{"text": "no link here"}"#),
            Call(method: .post, path: "/v1/preview", headers: json, body: #"{"url": 1}"#),
            // A url of another type is refused even beside a text; an empty language is no language.
            Call(method: .post, path: "/v1/preview", headers: json, body: #"{"text": "", "url": {}}"#),
            Call(method: .post, path: "/v1/preview", headers: json, body: #"{"text": "no link", "language": ""}"#),
            Call(method: .post, path: "/v1/preview", headers: json, body: #"{"text": "x", "language": "x y"}"#),
            Call(method: .post, path: "/v1/preview", body: #"{"text": "x"}"#),
            Call(
                method: .post, path: "/v1/preview",
                headers: [.authorization: "Bearer \(key)", .contentType: "text/html"],
                body: "{}"),
            Call(
                method: .post, path: "/v1/preview", headers: json,
                body: #"{"text": ""# + String(repeating: "a", count: 70_000) + #""}"#),
            Call(
                method: .post, path: "/v1/decode",
                headers: [.authorization: "Bearer \(key)", .contentType: "application/x-ndjson"],
                body: #"{"type": "MESG", "message": "hi"}"# + "\nnot json\n"),
            Call(method: .post, path: "/v1/decode", body: "{}"),
            // No body is no lines: an empty answer.
            Call(method: .post, path: "/v1/decode", headers: [.authorization: "Bearer \(key)"]),
            Call(
                method: .post, path: "/v1/decode",
                headers: [.authorization: "Bearer \(key)", .contentType: "image/png"],
                body: "{}"),
            Call(method: .delete, path: "/v1/previews?url=https%3A%2F%2Fexample.com%2F", headers: json),
            Call(method: .delete, path: "/v1/previews", headers: json),
            Call(method: .delete, path: "/v1/previews?url=x"),
            // No card has a URL with a NUL in it: 400 before the shared cache is asked (PostgreSQL's text refuses it).
            Call(method: .delete, path: "/v1/previews?url=https%3A%2F%2Fexample.com%2F%00", headers: json),
            // The console's routes: a link the guard refuses (loopback) is inspected without leaving the machine.
            Call(method: .get, path: "/v1/inspect?url=http%3A%2F%2F127.0.0.1%3A9%2F", headers: json),
            Call(method: .get, path: "/v1/inspect", headers: json),
            Call(method: .get, path: "/v1/inspect?url=x"),
            Call(method: .get, path: "/v1/inspect?message_id=404", headers: json),
            Call(method: .get, path: "/v1/inspect?url=x", headers: client),
            Call(method: .get, path: "/metrics", headers: client),
            Call(method: .post, path: "/v1/preview", headers: client, body: #"{"text": "no link here"}"#),
            Call(method: .post, path: "/v1/jobs/retry?limit=0", headers: json),
            Call(method: .get, path: "/v1/queue", headers: json),
            Call(method: .get, path: "/v1/queue"),
            Call(method: .get, path: "/v1/jobs?state=failed&limit=2", headers: json),
            Call(method: .get, path: "/v1/jobs?before=nowhere", headers: json),
            Call(method: .get, path: "/v1/jobs"),
            Call(method: .post, path: "/v1/jobs/retry", headers: json),
            Call(method: .post, path: "/v1/jobs/retry"),
            Call(method: .post, path: "/v1/jobs/1/retry", headers: json, operation: "/v1/jobs/{message_id}/retry"),
            Call(method: .post, path: "/v1/jobs/one/retry", headers: json, operation: "/v1/jobs/{message_id}/retry"),
            Call(method: .post, path: "/v1/jobs/1/retry", operation: "/v1/jobs/{message_id}/retry"),
            Call(method: .get, path: "/v1/refusals", headers: json),
            Call(method: .get, path: "/v1/refusals"),
            Call(method: .get, path: "/console"),
            Call(method: .get, path: "/console/console.mjs", operation: "/console/{file}"),
            Call(method: .get, path: "/console/card.css", operation: "/console/{file}"),
            Call(method: .get, path: "/console/index.html", operation: "/console/{file}"),
            Call(
                method: .get, path: "/images/AAAA/aHR0cHM6Ly9leGFtcGxlLmNvbS8", operation: "/images/{signature}/{url}"),
            Call(
                method: .head,
                path:
                    "/images/\(signer.signature(of: "http://127.0.0.1/a.png"))/\(ImageURLSigner.encode(Array("http://127.0.0.1/a.png".utf8)))",
                operation: "/images/{signature}/{url}"),
        ]
    }()

    @Test func everyAnswerIsOneTheDocumentGivesItsOperation() async throws {
        var configuration = ServerConfiguration(apiToken: ServerFixtures.token, apiBase: "http://127.0.0.1:9")
        configuration.apiKeys = try APIKeys(parsing: ServerFixtures.apiKey)
        configuration.operatorKeys = try APIKeys(parsing: Self.key)
        configuration.imageProxy = Self.signer
        let server = EnrichmentServer(
            configuration: configuration, store: MemoryJobStore(configuration: configuration.memory),
            logger: Logger(label: "test"))
        try await server.makeApplication().test(.router) { client in
            let document = try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.headers[.contentType] == "application/json")
                return try JSONValue.parse(String(buffer: response.body))
            }
            #expect(document["openapi"] == "3.1.0")
            let paths = try #require(document["paths"]?.objectValue)
            // Every route of the server is documented (and the document names no other).
            let documented = Set(
                paths.members.flatMap { path in
                    (path.value.objectValue?.members ?? []).map { "\($0.key.uppercased()) \(path.key)" }
                })
            #expect(documented == Set(Self.calls.map { "\($0.method) \($0.documented)" }))
            var drawn: Set<String> = []
            for call in Self.calls {
                let operation = try #require(
                    paths[call.documented]?[call.method.rawValue.lowercased()], "\(call.documented)")
                try await client.execute(
                    uri: call.path, method: call.method, headers: call.headers,
                    body: call.body.map { ByteBuffer(string: $0) }
                ) { response in
                    let status = String(response.status.code)
                    drawn.insert("\(call.method) \(call.documented) \(status)")
                    let answer = operation["responses"]?[status]
                    #expect(answer != nil, "\(call.method) \(call.path) answered \(status), which is not documented")
                    let contentType = response.headers[.contentType]?.prefix { $0 != ";" }.description
                    let media = answer?["content"]?.objectValue?.members.map(\.key) ?? []
                    #expect(
                        contentType.map(media.contains) ?? media.isEmpty,
                        "\(call.method) \(call.path) \(status): \(contentType ?? "no body"), documented \(media)")
                    if contentType == "application/json", media.contains("application/json"),
                        case let schema = answer?["content"]?["application/json"]?["schema"]?["$ref"]?.stringValue,
                        schema == "#/components/schemas/Problem"
                    {
                        #expect((try? JSONValue.parse(String(buffer: response.body)))?["error"]?.stringValue != nil)
                    }
                    if status == "401" { #expect(response.headers[.wwwAuthenticate] != nil) }
                }
            }
            // Each refusal the document promises was drawn at least once here (429 and 503 elsewhere).
            for expected in [
                "POST /v1/preview 400", "POST /v1/preview 401", "POST /v1/preview 413", "POST /v1/preview 415",
                "POST /v1/preview 422", "POST /webhooks/sendbird 400", "POST /webhooks/sendbird 401",
                "POST /webhooks/sendbird 413", "POST /webhooks/sendbird 415", "POST /v1/decode 415",
                "GET /metrics 401", "DELETE /v1/previews 200", "DELETE /v1/previews 400", "DELETE /v1/previews 401",
                "GET /images/{signature}/{url} 404", "HEAD /images/{signature}/{url} 403", "GET /v1/inspect 200",
                "GET /v1/inspect 400", "GET /v1/inspect 401", "GET /v1/jobs 400",
                "POST /v1/jobs/{message_id}/retry 409",
                "POST /v1/jobs/{message_id}/retry 400", "GET /console/{file} 404",
            ] {
                #expect(drawn.contains(expected), "\(expected) was not drawn: \(drawn.sorted())")
            }
        }
    }
}
