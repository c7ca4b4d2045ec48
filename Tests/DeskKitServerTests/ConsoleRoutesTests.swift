import Clocks
import DeskKitCards
import DeskKitFetchPolicy
import DeskKitJobStore
import DeskKitModel
import DeskKitPreview
@testable import DeskKitServer
import DeskKitServerTestSupport
import DeskKitTime
import Foundation
import Hummingbird
import HummingbirdTesting
import DeskKitTestSupport
import Testing

/// What the operator's console reads and does, as routes (the page itself is driven in Chromium by
/// `Web/test/console.test.mjs`): the queue, the failed jobs and their retry, the links that got no card, the
/// inspection of one link, and the console's files under their policy.
@Suite("Console routes")
struct ConsoleRoutesTests {

    static func get(_ client: TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .get) async throws
        -> (HTTPResponse.Status, JSONValue)
    {
        try await client.execute(uri: uri, method: method, headers: ServerFixtures.operatorAuthorized) {
            ($0.status, (try? JSONValue.parse(String(buffer: $0.body))) ?? .null)
        }
    }

    /// Asks `uri` until `holds` is true of its answer; fails naming `what` after a minute.
    static func until(
        _ what: String, _ client: TestClientProtocol, _ uri: String, _ holds: @escaping (JSONValue) -> Bool
    ) async throws -> JSONValue {
        try await DeskKitTestSupport.until("\(what) (asking \(uri))") {
            let answer = try await get(client, uri).1
            return holds(answer) ? .some(answer) : .none  // not `nil`: that literal is also JSONValue.null
        }
    }

    @Test func aFailedJobIsListedAndRetriedFromTheAPI() async throws {
        try await ServerFixtures.withServer { client, fake, pages, _ in
            // The Platform API refuses the first update for good: the job fails at once.
            await fake.answer(.init(status: 400))
            let link = "\(pages.baseURL)/ok"
            let (status, _) = try await ServerFixtures.post(
                client, ServerFixtures.webhook(id: 77, text: "look: \(link)"))
            #expect(status == .ok)
            let failed = try await Self.until("job 77 failed", client, "/v1/jobs?state=failed") {
                $0["jobs"]?.arrayValue?.count == 1
            }
            let job = try #require(failed["jobs"]?.arrayValue?.first)
            #expect(job["message_id"]?.int64Value == 77)
            #expect(job["channel_url"]?.stringValue == "sendbird_group_channel_1138")
            #expect(job["attempts"]?.int64Value == 1)
            #expect(job["last_error"]?.stringValue?.contains("HTTP 400") == true)
            #expect(job["links"] == [.string(link)])
            #expect(job["text"] == nil, "a customer's words are not shown")
            #expect(failed["next"] == .null)

            // Retried: the job runs again and ends done; a second retry finds nothing failed.
            #expect(
                try await Self.get(client, "/v1/jobs/77/retry", method: .post) == (.ok, ["retried": 1, "more": false]))
            _ = try await Self.until("job 77 done", client, "/v1/queue") { $0["counts"]?["done"]?.int64Value == 1 }
            #expect(await fake.puts.count == 2)
            let again = try await Self.get(client, "/v1/jobs/77/retry", method: .post)
            #expect(again.0 == .conflict)
            #expect(again.1["error"]?.stringValue?.contains("no failed job for message 77") == true)
            #expect(try await Self.get(client, "/v1/jobs/seventy/retry", method: .post).0 == .badRequest)
            #expect(
                try await Self.get(client, "/v1/jobs/retry", method: .post) == (.ok, ["retried": 0, "more": false]))

            // The last hour: one admitted, one error, one enriched, in the current minute.
            let summary = try await Self.get(client, "/v1/queue").1
            let minutes = try #require(summary["last_hour"]?.arrayValue)
            #expect(minutes.count == 60)
            let sum = { (key: String) in minutes.reduce(0) { $0 + ($1[key]?.int64Value ?? 0) } }
            #expect(sum("admitted") == 1 && sum("errors") == 1 && sum("enriched") == 1)
        }
    }

    /// Pages follow one another through `next`, each job once: a cursor that rounded the admission time (through
    /// seconds since 1970) gave a page's last job again on the next, for most of these times.
    @Test func pagesOfJobsFollowOneAnother() async throws {
        let store = MemoryJobStore()
        let now = Date()
        for id in Int64(1)...20 {
            _ = try await store.admit(
                EnrichmentJob(channelURL: "c", messageID: id, text: "no link"),
                now: now.addingTimeInterval(Double(id) * 0.001_37), dedupWindow: .zero)
        }
        try await ServerFixtures.withServer(store: store) { client, _, _, _ in
            var seen: [Int64] = []
            var uri = "/v1/jobs?limit=2"
            for _ in 0..<20 {
                let (status, page) = try await Self.get(client, uri)
                #expect(status == .ok)
                seen += (page["jobs"]?.arrayValue ?? []).compactMap { $0["message_id"]?.int64Value }
                guard let next = page["next"]?.stringValue else { break }
                uri = "/v1/jobs?limit=2&before=\(next)"
            }
            #expect(seen == Array((Int64(1)...20).reversed()))
            for bad in [
                "limit=0", "limit=501", "state=lost", "before=yesterday", "before=nan_1", "before=74679.91E91_8",
            ] {
                #expect(try await Self.get(client, "/v1/jobs?\(bad)").0 == .badRequest, "\(bad)")
            }
        }
    }

    @Test func linksThatGotNoCardAreCountedByKindWithTheirMessage() async throws {
        try await ServerFixtures.withServer { client, _, pages, _ in
            let text = "see \(pages.baseURL)/orders/7 and \(pages.baseURL)/missing"
            _ = try await ServerFixtures.post(client, ServerFixtures.webhook(id: 91, text: text))
            let answer = try await Self.until("two links without a card", client, "/v1/refusals") {
                $0["recent"]?.arrayValue?.count == 2
            }
            #expect(
                answer["last_hour"] == ["http_status": 1, "login_wall": 1]
                    || answer["last_hour"] == ["login_wall": 1, "http_status": 1])
            #expect(answer["last_day"]?["login_wall"]?.int64Value == 1)
            let wall = try #require(answer["recent"]?.arrayValue?.first { $0["error"]?["kind"] == "login_wall" })
            #expect(wall["url"]?.stringValue == "\(pages.baseURL)/orders/7")
            #expect(wall["message_id"]?.int64Value == 91)
            #expect(wall["channel_url"]?.stringValue == "sendbird_group_channel_1138")
            #expect(wall["refusal"] == true)
            let missing = try #require(answer["recent"]?.arrayValue?.first { $0["error"]?["kind"] == "http_status" })
            #expect(missing["refusal"] == false)
        }
    }

    @Test func theInspectorTellsTheWholeStoryAndCachesNothing() async throws {
        try await ServerFixtures.withServer { client, _, pages, server in
            let url = "\(pages.baseURL)/order"
            let (status, story) = try await Self.get(client, "/v1/inspect?url=\(url)")
            #expect(status == .ok)
            #expect(story["cache"] == ["held": false, "answer": .null])
            // The page and its image, and beside the page (it is a deep link) the site's made-up address.
            let all = try #require(story["hops"]?.arrayValue)
            #expect(all.filter { $0["purpose"] == "site_probe" }.count == 1)
            #expect(all.first { $0["purpose"] == "site_probe" }?["url"]?.stringValue?.contains("/deskkit-") == true)
            let hops = all.filter { $0["purpose"] != "site_probe" }
            #expect(hops.map { $0["purpose"] } == ["page", "image"])
            let page = hops[0]
            #expect(page["url"]?.stringValue == url)
            #expect(page["status"]?.int64Value == 200)
            #expect(page["site_policy"]?["verdict"] == "allowed")
            #expect(page["address"] == ["verdict": "allowed", "ip": "127.0.0.1", "detail": .null])
            #expect(page["charset"]?["decided"] != .null)
            #expect((page["bytes"]?.int64Value ?? 0) > 0)
            #expect(hops[1]["url"]?.stringValue == "\(pages.baseURL)/map.png")
            #expect(story["origins"]?["title"] == "og:title")
            #expect(story["origins"]?["description"] == "og:description")
            #expect(story["origins"]?["image"] == "og:image")
            #expect(story["image"]?["type"] == "png" && story["image"]?["width"]?.int64Value == 640)
            #expect(story["tags"]?["document"]?.arrayValue?.first == ["key": "title", "value": "Order 1138"])
            #expect(story["link_card"]?["title"]?["text"] == "Parcel 1138 is on its way")
            #expect(story["refusal"] == .null)
            #expect(await server.previews.cachedCount == 0, "an inspection caches nothing")

            // Once a message's card is cached, the inspection says so.
            _ = try await client.execute(
                uri: "/v1/preview", method: .post,
                headers: [.authorization: "Bearer \(ServerFixtures.apiKey)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"url": "\#(url)"}"#)
            ) { _ in }
            #expect(try await Self.get(client, "/v1/inspect?url=\(url)").1["cache"]?["held"] == true)

            // A field an oEmbed answer gave: the answer's fields among the tags, and the one that won.
            let video = try await Self.get(client, "/v1/inspect?url=\(pages.baseURL)/video").1
            #expect(video["origins"]?["title"] == "oembed title")
            #expect(video["origins"]?["site_name"] == "oembed provider_name")
            #expect(
                video["tags"]?["oembed"]?.arrayValue?.contains(["key": "title", "value": "Unboxing the parcel"]) == true
            )
            #expect(
                video["hops"]?.arrayValue?.map { $0["purpose"] }.filter { $0 != "site_probe" } == ["page", "oembed"])

            // A login wall: its kind, the sentence that decided, and the signals read.
            let wall = try await Self.get(client, "/v1/inspect?url=\(pages.baseURL)/orders/7").1
            #expect(wall["refusal"]?["kind"] == "login_wall")
            #expect(wall["signals"]?["password_fields"]?.int64Value == 1)
            #expect(wall["card"] == .null && wall["link_card"] == .null)

            for bad in ["", "?url=", "?url=http://a.example/%01", "?url=\(url)&language=%20%20;;"] {
                #expect(try await Self.get(client, "/v1/inspect\(bad)").0 == .badRequest, "\(bad)")
            }
        }
    }

    @Test func theSitePolicyAndTheAddressGuardAreShownOnTheirHop() async throws {
        try await ServerFixtures.withServer({
            $0.fetch.sitePolicy = try! SitePolicy(deny: "denied.example", allow: nil)
        }) {
            client, _, _, _ in
            let denied = try await Self.get(client, "/v1/inspect?url=https://news.denied.example/a").1
            #expect(denied["refusal"]?["kind"] == "policy")
            let hop = try #require(denied["hops"]?.arrayValue?.first)
            #expect(hop["site_policy"]?["verdict"] == "refused")
            #expect(hop["address"]?["verdict"] == "not_reached")
            let blocked = try await Self.get(client, "/v1/inspect?url=http://10.0.0.1/").1
            #expect(blocked["refusal"]?["kind"] == "blocked_address")
            let blockedHop = try #require(blocked["hops"]?.arrayValue?.first)
            #expect(blockedHop["address"]?["verdict"] == "refused")
            #expect(blockedHop["site_policy"]?["verdict"] == "allowed")
        }
    }

    @Test func theConsoleIsServedUnderAStrictPolicy() async throws {
        try await ServerFixtures.withServer { client, _, _, _ in
            try await client.execute(uri: "/console", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
                #expect(!policy.contains("unsafe"))
                #expect(String(buffer: response.body).contains(#"<script type="module" src="console/console.mjs">"#))
            }
            for (file, type) in [
                ("console.mjs", "text/javascript"), ("render.mjs", "text/javascript"), ("card.css", "text/css"),
            ] {
                try await client.execute(uri: "/console/\(file)", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix(type) == true)
                }
            }
            try await client.execute(uri: "/console/secret.txt", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json")
            }
        }
    }

    /// The console draws cards with the web package's renderer and style sheet: the same files.
    /// (`card.css` is `CardHTML.styleSheet`, which `ConversationPageTests` keeps equal to `Web/card.css`.)
    @Test func theConsoleDrawsCardsWithTheWebPackagesFiles() throws {
        let web = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Web")
        #expect(
            ConsoleRoute.files["render.mjs"]?.bytes == Array(try Data(contentsOf: web.appending(path: "render.mjs"))))
        #expect(ConsoleRoute.files["card.css"]?.bytes == Array(CardHTML.styleSheet.utf8))
    }

    /// The last hour by minute and the last day by hour, on a clock the test moves; the examples bounded.
    @Test func recentActivityKeepsItsWindowsAndBounds() async throws {
        let clock = TestClock()
        let activity = RecentActivity(clock: ServiceClock(clock))
        activity.admitted()
        activity.finished(.updated)
        activity.finished(.permanent(PlatformAPIError(.rejected, status: 400, detail: "no")))
        for n in 0..<60 {
            activity.noCard(
                "https://example.com/\(n)", .refused(.loginWall, provider: nil, "a form"), messageID: Int64(n),
                channelURL: "c")
        }
        var minutes = activity.lastHour()
        #expect(minutes.count == 60)
        #expect(minutes.last.map { [$0.admitted, $0.enriched, $0.errors] } == [1, 1, 1])
        var failures = activity.failures()
        #expect(failures.hour == ["login_wall": 60] && failures.day == ["login_wall": 60])
        #expect(failures.recent.count == RecentActivity.maxExamples)
        #expect(failures.recent.first?.messageID == 59, "newest first")
        // An hour and a minute later: the hour is empty, the day still counts them.
        await clock.advance(by: .seconds(61 * 60))
        minutes = activity.lastHour()
        #expect(minutes.allSatisfy { $0.admitted == 0 && $0.enriched == 0 && $0.errors == 0 })
        failures = activity.failures()
        #expect(failures.hour.isEmpty && failures.day == ["login_wall": 60])
        await clock.advance(by: .seconds(24 * 3600))
        failures = activity.failures()
        #expect(failures.day.isEmpty && failures.recent.isEmpty)
        // A cancelled fetch says nothing about the link.
        activity.noCard("https://example.com/x", FetchError(.cancelled, "gone"), messageID: 1, channelURL: nil)
        #expect(activity.failures().recent.isEmpty)
    }
}
