import DeskKitJobStore
import DeskKitModel
import DeskKitPageServer
import DeskKitPreview
import DeskKitServer
import DeskKitServerTestSupport
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Previews in the customer's language: `/v1/preview`'s `"language"`, the webhook sender's
/// `metadata.language` carried by the job to the fetch, and the server's `--accept-language` for the rest —
/// against a shop that serves Russian and English by `Accept-Language`.
@Suite("Languages of previews")
struct LanguageTests {
    /// Runs `body` with a server whose pages answer in Russian when asked for it first.
    func withServer(
        acceptLanguage: AcceptLanguage = .default,
        _ body: @Sendable (TestClientProtocol, FakeSendbird, PageServer) async throws -> Void
    ) async throws {
        let fake = FakeSendbird()
        try await fake.start()
        let pages = try await PageServer.start(host: "127.0.0.1") { _, headers in
            let asked = headers.first { $0.0.lowercased() == "accept-language" }?.1 ?? ""
            let title = asked.hasPrefix("ru") ? "Посылка 1138 в пути" : "Parcel 1138 is on its way"
            return .html(#"<html><head><meta property="og:title" content="\#(title)"></head></html>"#)
        }
        var configuration = ServerConfiguration(apiToken: ServerFixtures.token, apiBase: await fake.baseURL)
        configuration.fetch.allowedAddresses = [IPAddress(host: "127.0.0.1")!]
        configuration.fetch.allowedPorts.insert(pages.port)
        configuration.fetch.acceptLanguage = acceptLanguage
        configuration.previews.probeImages = false
        configuration.queue.pollInterval = .milliseconds(50)
        configuration.apiKeys = try APIKeys(parsing: ServerFixtures.apiKey)
        let server = EnrichmentServer(
            configuration: configuration, store: MemoryJobStore(configuration: configuration.memory),
            logger: Logger(label: "test"))
        try await ServerFixtures.test(server, fake, pages) { client in try await body(client, fake, pages) }
    }

    static func preview(_ client: TestClientProtocol, _ json: String) async throws -> (HTTPResponse.Status, JSONValue) {
        try await client.execute(
            uri: "/v1/preview", method: .post, headers: ServerFixtures.authorized, body: ByteBuffer(string: json)
        ) { ($0.status, (try? JSONValue.parse(String(buffer: $0.body))) ?? .null) }
    }

    @Test func aPreviewRequestAsksForItsLanguage() async throws {
        try await withServer { client, _, pages in
            let url = pages.baseURL + "/parcel"
            let title = { (answer: JSONValue) in answer["previews"]?.arrayValue?.first?["payload"]?["body"]?["title"] }
            #expect(try await title(Self.preview(client, #"{"url": "\#(url)"}"#).1) == "Parcel 1138 is on its way")
            #expect(
                try await title(Self.preview(client, #"{"url": "\#(url)", "language": "ru"}"#).1)
                    == "Посылка 1138 в пути")
            #expect(
                try await title(Self.preview(client, #"{"text": "see \#(url)", "language": "ru-RU, en;q=0.5"}"#).1)
                    == "Посылка 1138 в пути")
            #expect(
                try await title(Self.preview(client, #"{"url": "\#(url)", "language": null}"#).1)
                    == "Parcel 1138 is on its way")
            for bad in [#""ru\r\nX-Evil: 1""#, #""english please""#, "5", "[\"ru\"]"] {
                let (status, answer) = try await Self.preview(client, #"{"url": "\#(url)", "language": \#(bad)}"#)
                #expect(status == .unprocessableContent, "\(bad)")
                #expect(answer["error"]?.stringValue?.hasPrefix("\"language\"") == true, "\(answer)")
            }
        }
    }

    @Test func aWebhookSendersLanguageGoesWithTheJobToTheFetch() async throws {
        try await withServer { client, fake, pages in
            for (id, metadata) in [(Int64(1), #"{"language": "ru"}"#), (2, "{}"), (3, #"{"language": "no language"}"#)]
            {
                let body = #"""
                    {"category": "group_channel:message_send", "type": "MESG", "app_id": "APP-1",
                     "sender": {"user_id": "cust-\#(id)", "metadata": \#(metadata)},
                     "payload": {"message_id": \#(id), "message": "where? \#(pages.baseURL)/parcel", "data": ""},
                     "channel": {"channel_url": "sendbird_group_channel_1138"}}
                    """#
                let (status, _) = try await ServerFixtures.post(client, Array(body.utf8))
                #expect(status == .ok)
            }
            let puts = try await fake.waitForPuts(3)
            try #require(puts.count == 3)
            var titles: [String: String] = [:]
            for put in puts {
                let data = try #require(put.body["data"]?.stringValue)
                guard case .urlPreview(let preview) = DeskPayload.decode(data, customType: nil).content else {
                    Issue.record("not a preview: \(data)")
                    continue
                }
                titles[String(put.path.split(separator: "/").last ?? "")] = preview.title
            }
            #expect(titles["1"] == "Посылка 1138 в пути")
            #expect(titles["2"] == "Parcel 1138 is on its way", "no language: the server's")
            #expect(titles["3"] == "Parcel 1138 is on its way", "no language but words: the server's")
        }
    }

    @Test func theServersOwnLanguageIsItsSetting() async throws {
        try await withServer(acceptLanguage: try AcceptLanguage("ru")) { client, _, pages in
            let (_, answer) = try await Self.preview(client, #"{"url": "\#(pages.baseURL)/parcel"}"#)
            #expect(answer["previews"]?.arrayValue?.first?["payload"]?["body"]?["title"] == "Посылка 1138 в пути")
        }
    }
}
