import Clocks
import DeskKitJobStore
import DeskKitModel
import DeskKitServer
import DeskKitServerTestSupport
import DeskKitTime
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// The document a server serves is true of that server, in every configuration: a route that is off is absent
/// from it, every path and method it names is answered, and what the router itself answers — no such route, a
/// method the path does not take, a route that is off — is JSON, like every other refusal; HEAD answers carry
/// the GET's headers.
@Suite("OpenAPI document per configuration")
struct OpenAPIConfigurationsTests {
    static func server(
        imageProxy: Bool, apiKeys: Bool, publicURL: String? = nil, clock: ServiceClock = .system
    ) throws -> EnrichmentServer {
        var configuration = ServerConfiguration(apiToken: ServerFixtures.token, apiBase: "http://127.0.0.1:9")
        if apiKeys {
            configuration.apiKeys = try APIKeys(parsing: ServerFixtures.apiKey)
            configuration.operatorKeys = try APIKeys(parsing: OpenAPIContractTests.key)
        }
        if imageProxy { configuration.imageProxy = OpenAPIContractTests.signer }
        configuration.publicURL = publicURL
        return EnrichmentServer(
            configuration: configuration, store: MemoryJobStore(configuration: configuration.memory),
            logger: Logger(label: "test"), clock: clock)
    }

    /// The operations a document names, as `METHOD /path`.
    static func operations(_ client: some TestClientProtocol) async throws -> Set<String> {
        let document = try await client.execute(uri: "/openapi.json", method: .get) { response in
            try JSONValue.parse(String(buffer: response.body))
        }
        let paths = try #require(document["paths"]?.objectValue)
        return Set(
            paths.members.flatMap { path in
                (path.value.objectValue?.members ?? []).map { "\($0.key.uppercased()) \(path.key)" }
            })
    }

    @Test(arguments: [(true, true), (false, true), (false, false), (true, false)])
    func theDocumentNamesTheRoutesThisServerHas(imageProxy: Bool, apiKeys: Bool) async throws {
        let all = OpenAPIContractTests.calls.map { "\($0.method) \($0.documented)" }
        let expected = Set(all.filter { imageProxy || !$0.contains("/images/") })
        try await Self.server(imageProxy: imageProxy, apiKeys: apiKeys).makeApplication().test(.router) { client in
            #expect(try await Self.operations(client) == expected)
            // A route that is off answers as an unknown path does: 404, in JSON.
            for method in [HTTPRequest.Method.get, .head] where !imageProxy {
                try await client.execute(uri: "/images/AAAA/aHR0cHM6Ly9leGFtcGxlLmNvbS8", method: method) { response in
                    #expect(response.status == .notFound)
                    #expect(response.headers[.contentType] == "application/json")
                }
            }
        }
    }

    @Test func theServersAreThePublicURL() async throws {
        let server = try Self.server(imageProxy: false, apiKeys: true, publicURL: "https://desk.example.com")
        try await server.makeApplication().test(.router) { client in
            let document = try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(response.headers[.contentType] == "application/yaml")
                return try JSONValue.parse(String(buffer: response.body))
            }
            #expect(document["servers"]?.arrayValue?.first?["url"] == "https://desk.example.com")
        }
    }

    @Test func theRoutersOwnAnswersAreJSON() async throws {
        try await Self.server(imageProxy: false, apiKeys: true).makeApplication().test(.router) { client in
            try await client.execute(uri: "/no/such/route", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json")
                #expect((try? JSONValue.parse(String(buffer: response.body)))?["error"]?.stringValue != nil)
            }
            // A path that is there, with a method it does not take: 405, and what it takes.
            for (path, method, allowed) in [
                ("/health", HTTPRequest.Method.post, "GET, HEAD"), ("/v1/preview", .get, "POST"),
                ("/webhooks/sendbird", .put, "POST"), ("/schemas/desk-data.json", .delete, "GET, HEAD"),
            ] {
                try await client.execute(uri: path, method: method, body: ByteBuffer(string: "{}")) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(response.headers[.allow] == allowed)
                    #expect(response.headers[.contentType] == "application/json")
                    #expect((try? JSONValue.parse(String(buffer: response.body)))?["error"]?.stringValue != nil)
                }
            }
        }
    }

    /// What the document's schemas refuse is refused, and what they allow is answered (schemathesis' negative and
    /// positive data checks found each of these).
    @Test func theRequestsAreHeldToTheirSchemas() async throws {
        let json = OpenAPIContractTests.json
        try await Self.server(imageProxy: false, apiKeys: true).makeApplication().test(.router) { client in
            for (path, method, headers, body, status) in [
                (
                    "/v1/preview", HTTPRequest.Method.post, json, #"{"text": "", "url": {}}"#,
                    HTTPResponse.Status.badRequest
                ),
                ("/v1/preview", .post, json, #"{"text": 7}"#, .badRequest),
                ("/v1/preview", .post, json, #"{"text": "", "url": null}"#, .badRequest),
                ("/v1/decode", .post, json, "{}", .ok),
                ("/v1/preview", .post, json, #"{"text": "no link", "language": ""}"#, .ok),
                ("/v1/decode", .post, [.authorization: "Bearer \(OpenAPIContractTests.key)"], nil, .ok),
                ("/v1/previews?url=https%3A%2F%2Fexample.com%2F%01", .delete, json, nil, .badRequest),
                (
                    "/v1/previews?url=https%3A%2F%2Fexample.com%2F" + String(repeating: "a", count: 8200), .delete,
                    json, nil, .badRequest
                ),
            ] {
                try await client.execute(
                    uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
                ) {
                    response in
                    #expect(response.status == status, "\(method) \(path.prefix(60)) \(body ?? "")")
                }
            }
        }
    }

    /// On a clock that stands still: `/health`'s uptime would otherwise be a digit longer for one of the two
    /// when a second passes between them at 9 s or 99 s.
    @Test func aHeadAnswerCarriesTheGetsHeaders() async throws {
        let server = try Self.server(imageProxy: false, apiKeys: true, clock: ServiceClock(TestClock()))
        try await server.makeApplication().test(.router) { client in
            for path in ["/health", "/openapi.json", "/schemas/desk-data.json"] {
                let get = try await client.execute(uri: path, method: .get) { $0 }
                let head = try await client.execute(uri: path, method: .head) { $0 }
                #expect(head.status == get.status, "\(path)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(path)")
                #expect(head.headers[.contentLength] == get.headers[.contentLength], "\(path)")
                #expect(head.body.readableBytes == 0)
            }
        }
    }
}
