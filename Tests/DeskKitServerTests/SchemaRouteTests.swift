import DeskKitJobStore
import DeskKitModel
import DeskKitSchemas
import DeskKitServerTestSupport
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import DeskKitServer

/// `/schemas/NAME.json` serves every schema, with the `$id` of where it is served so that a tool reading it
/// from the server resolves its references there too.
@Suite("Schemas served")
struct SchemaRouteTests {
    func withServer(publicURL: String? = nil, _ body: @Sendable (TestClientProtocol) async throws -> Void)
        async throws
    {
        var configuration = ServerConfiguration(apiToken: ServerFixtures.token, apiBase: "http://127.0.0.1:9")
        configuration.publicURL = publicURL
        let server = EnrichmentServer(
            configuration: configuration, store: MemoryJobStore(configuration: configuration.memory),
            logger: Logger(label: "test"))
        try await server.makeApplication().test(.live, body)
    }

    /// The `$id` of a served document.
    static func id(_ body: ByteBuffer) throws -> String {
        try #require(try JSONValue.parse(String(buffer: body))["$id"]?.stringValue)
    }

    @Test func everySchemaIsServedWithTheIdOfWhereItIs() async throws {
        try await withServer { client in
            for schema in DeskSchemas.all {
                let (status, type, id, text) = try await client.execute(
                    uri: "/schemas/\(schema.name).json", method: .get
                ) { response in
                    (
                        response.status, response.headers[.contentType], try Self.id(response.body),
                        String(buffer: response.body)
                    )
                }
                #expect(status == .ok)
                #expect(type == "application/schema+json")
                // The live client's Host (127.0.0.1 or localhost, and the port) over http.
                #expect(id.hasPrefix("http://"))
                #expect(id.hasSuffix("/schemas/\(schema.name).json"))
                let base = String(id.dropLast("/schemas/\(schema.name).json".count))
                // Only the $id differs from the file.
                #expect(text.replacing(base + "/schemas/", with: DeskSchemas.baseURI) == schema.text)
            }
            for path in ["/schemas/desk.json", "/schemas/desk-data", "/schemas/..%2Fopenapi.json"] {
                let status = try await client.execute(uri: path, method: .get) { $0.status }
                #expect(status == .notFound, "\(path)")
            }
        }
    }

    @Test func aPublicURLIsTheBase() async throws {
        // As the setting's reader leaves it: without the trailing slash.
        try await withServer(publicURL: try ImageURLSigner.publicURL("https://desk-tools.example.com/")) { client in
            let id = try await client.execute(uri: "/schemas/desk-message.json", method: .get) {
                try Self.id($0.body)
            }
            #expect(id == "https://desk-tools.example.com/schemas/desk-message.json")
        }
    }

    @Test func aHostNoURLCanBeMadeOfKeepsTheCanonicalID() {
        let route = SchemaRoute()
        #expect(route.base(host: "deskkit.internal:8080") == "http://deskkit.internal:8080")
        #expect(route.base(host: "[::1]:8080") == "http://[::1]:8080")
        for host in [nil, "", "a\"b", "evil.example/x", "a b", "ex@mple"] { #expect(route.base(host: host) == nil) }
    }
}
