import DeskKitPageServer
import Foundation
import Testing

@Suite("deskkit preview and demo")
struct PreviewCommandTests {
    @Test func previewRefusesLoopbackWithATypedError() async throws {
        let r = try await CLI.run(["preview", "see http://127.0.0.1:8080/admin"])
        #expect(r.status == 1)
        let json = try CLI.json(try #require(r.lines.first))
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["kind"] as? String == "blocked_address")
        #expect((error["detail"] as? String)?.contains("port 8080") == true)
        let decimal = try await CLI.run(["preview", "http://2130706433/"])
        let detail = ((try CLI.json(decimal.lines[0]))["error"] as? [String: Any])?["detail"] as? String
        #expect(detail?.hasPrefix("2130706433 (127.0.0.1) is loopback (--allow-private") == true)
    }

    /// `--explain`: the inspection, for a terminal and as `GET /v1/inspect`'s JSON — a redirect and its page, the
    /// charset declared and decided, the winner of each field; a wall's kind and signals (exit 1); a title's control
    /// characters escaped.
    @Test func previewExplains() async throws {
        let latin1: [UInt8] =
            Array("<title>Caf".utf8) + [0xE9]
            + Array(
                #" guide</title><meta property="og:title" content="The guide"><meta name="twitter:title" content="Guide"><meta name="description" content="Read me">"#
                    .utf8)
        let server = try await PageServer.start { path in
            switch path {
            case "/old": .redirect("/guide", status: 301)
            case "/guide": .init(headers: [("Content-Type", "text/html; charset=ISO-8859-1")], body: .bytes(latin1))
            case "/wall":
                .html("<title>Sign in\u{202E} evil\u{1B}[2J</title><form><input name=u><input type=password></form>")
            default: .init(status: 404)
            }
        }
        try await server.scoped {
            let text = try await CLI.run(["preview", "--allow-private", "--explain", server.baseURL + "/old"])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("1. page  \(server.baseURL)/old  → 301 to /guide"), "\(text.stdout)")
            #expect(text.stdout.contains("2. page  \(server.baseURL)/guide  → 200"))
            #expect(text.stdout.contains("declared ISO-8859-1)"), "\(text.stdout)")
            #expect(text.stdout.contains(#"title        "The guide"  ← og:title"#))
            #expect(text.stdout.contains(#"description  "Read me"  ← meta description"#))
            #expect(text.stdout.contains(#"document   title = "Café guide""#))

            let json = try await CLI.run(["preview", "--allow-private", "--explain", "--json", server.baseURL + "/old"])
            let answer = try CLI.json(try #require(json.lines.first))
            let hops = try #require(answer["hops"] as? [[String: Any]])
            #expect(hops.map { $0["status"] as? Int } == [301, 200])
            #expect((answer["origins"] as? [String: Any])?["title"] as? String == "og:title")

            let wall = try await CLI.run(["preview", "--allow-private", "--explain", server.baseURL + "/wall"])
            #expect(wall.status == 1)
            #expect(wall.stdout.contains("no card: login_wall"), "\(wall.stdout)")
            #expect(wall.stdout.contains("password_fields 1"))
            #expect(!wall.stdout.contains("\u{1B}") && !wall.stdout.contains("\u{202E}"))
            #expect(wall.stdout.contains(#"title = "Sign in\u{202e} evil"#), "\(wall.stdout)")
            let usage = try await CLI.run(["preview", "--json", server.baseURL + "/wall"])
            #expect(usage.status == 64 && usage.stderr.contains("--json goes with --explain"))
        }
    }

    /// `--details`: the Platform API body (the card's five fields, and the probed image's size), and what the
    /// card's fields cannot hold — the image's type, a file's type and size, why an image was left out.
    @Test func previewDetails() async throws {
        func be32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + be32(600) + be32(315)
            + Array(repeating: 0, count: 64)
        let pixel: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0] + Array(repeating: 0, count: 20)
        let server = try await PageServer.start { path in
            switch path {
            case "/p": .html(#"<title>Order</title><meta property="og:image" content="/i.png">"#)
            case "/t": .html(#"<title>Tracked</title><meta property="og:image" content="/px.gif">"#)
            case "/i.png": .init(headers: [("Content-Type", "image/png")], body: .bytes(png))
            case "/px.gif": .init(headers: [("Content-Type", "image/gif")], body: .bytes(pixel))
            case "/manual.pdf":
                .init(
                    headers: [("Content-Type", "application/pdf")], body: .bytes(Array(repeating: 0x25, count: 12_345)))
            default: .init(status: 404)
            }
        }
        try await server.scoped {
            func preview(_ path: String, _ flags: [String] = ["--details"]) async throws -> [String: Any] {
                let r = try await CLI.run(["preview", "--allow-private"] + flags + [server.baseURL + path])
                #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
                return try CLI.json(try #require(r.lines.first))
            }
            func payload(_ message: [String: Any]?) throws -> [String: Any] {
                try CLI.json(try #require(message?["data"] as? String))
            }
            let page = try await preview("/p")
            let details = try #require(page["details"] as? [String: Any])
            #expect(details["image_width"] as? Int == 600 && details["image_height"] as? Int == 315)
            #expect(details["image_type"] as? String == "png")
            #expect(details["charset_source"] as? String != nil)
            let body = try payload(page["message"] as? [String: Any])
            #expect(((body["body"] as? [String: Any])?["image"] as? String)?.hasSuffix("/i.png") == true)
            let fields = Set((body["body"] as? [String: Any] ?? [:]).keys)
            let five: Set<String> = ["url", "title", "site_name", "description", "image"]
            // Desk's five fields, and the probed image's size, so a client reserves its space (Desk's clients ignore
            // members they do not know).
            #expect(fields == five.union(["image_width", "image_height"]), "the payload keeps its five fields")
            #expect((body["body"] as? [String: Any])?["image_width"] as? Int == 600)
            #expect((body["body"] as? [String: Any])?["image_height"] as? Int == 315)
            // Without --details, the message alone, as before.
            await #expect(try preview("/p", [])["details"] == nil)
            // A tracking pixel is left out of the card, and the details say why.
            let tracked = try await preview("/t")
            let trackedCard = try payload(tracked["message"] as? [String: Any])
            #expect((trackedCard["body"] as? [String: Any])?["image"] as? String == "")
            #expect((tracked["details"] as? [String: Any])?["image_dropped"] as? String != nil)
            let unprobed = try await payload(try preview("/t", ["--no-image-probe"]))
            #expect(((unprobed["body"] as? [String: Any])?["image"] as? String)?.hasSuffix("/px.gif") == true)
            // A file: its name, type and size.
            let pdf = try await #require(try preview("/manual.pdf")["details"] as? [String: Any])
            #expect(pdf["media_type"] as? String == "application/pdf")
            #expect(pdf["content_length"] as? Int == 12_345)
            #expect(pdf["file_name"] as? String == "manual.pdf")
        }
    }

    /// A page that stands in for the one linked: no card, `{"error": {"kind", "provider", "detail"}}` and
    /// exit 1, `provider` only when it is known; `--details` the same.
    @Test func aWallIsRefusedWithItsKindAndProvider() async throws {
        let server = try await PageServer.start { path in
            switch path {
            case "/hold":
                .init(
                    status: 403, headers: [("Content-Type", "text/html"), ("Set-Cookie", "_pxhd=1; path=/")],
                    body: .bytes(
                        Array(#"<title>Access to this page has been denied</title><div id="px-captcha">"#.utf8)))
            case "/gone": .html("<title>Page not found – Shop</title><h1>Sorry, we couldn't find that page</h1>")
            default: .init(status: 404)
            }
        }
        try await server.scoped {
            for flags in [[], ["--details"]] {
                let r = try await CLI.run(["preview", "--allow-private"] + flags + [server.baseURL + "/hold"])
                #expect(r.status == 1)
                let line = try #require(r.lines.first)
                let error = try #require(try CLI.json(line)["error"] as? [String: Any])
                #expect(error["kind"] as? String == "challenge" && error["provider"] as? String == "perimeterx")
                #expect((error["detail"] as? String)?.isEmpty == false)
            }
            let gone = try await CLI.run(["preview", "--allow-private", server.baseURL + "/gone"])
            #expect(gone.status == 1)
            let line = try #require(gone.lines.first)
            let error = try #require(try CLI.json(line)["error"] as? [String: Any])
            #expect(error["kind"] as? String == "error_page" && error["provider"] == nil)
            #expect(Array(error.keys).sorted() == ["detail", "kind"])
        }
    }

    @Test func demoShowsBothViewsWithPreviews() async throws {
        let r = try await CLI.run(["demo"])
        #expect(r.status == 0)
        let out = r.stdout
        let customer = try #require(out.range(of: "What the customer sees"))
        let agent = try #require(out.range(of: "What the agent sees"))
        let customerView = String(out[customer.upperBound..<agent.lowerBound])
        let agentView = String(out[agent.upperBound...])
        #expect(customerView.contains("Parcel 1138: delayed at the Riverside depot"))
        #expect(customerView.contains("返品・交換について"), "the Shift_JIS page decoded")
        #expect(customerView.contains("What happens when a parcel is lost? — Acme Help Centre"))
        #expect(!customerView.contains("automatically assigned"), "system messages are hidden from customers")
        #expect(customerView.contains("The ticket is closed"), "but the client learns the ticket is closed")
        #expect(agentView.contains("automatically assigned to Cindy"))
        #expect(agentView.contains("★★★★★"))
        #expect(r.stderr.contains("0 failed"))
    }

    /// `--lang`: the demo's interface — headings, notes, the rating, the file card's kind and size, the summary's
    /// plural forms — in Russian; the conversation keeps its words.
    @Test func demoSpeaksTheLanguageAskedFor() async throws {
        let r = try await CLI.run(["demo", "--lang", "ru"])
        #expect(r.status == 0)
        for words in [
            "Что видит клиент", "Что видит агент", "Обращение закрыто, поле ответа скрыто.", "5 звёзд из 5",
            "Клиент согласился закрыть обращение", "Parcel 1138: delayed at the Riverside depot",
            "Изображение (PNG), 600×315, 3 КБ",
        ] {
            #expect(r.stdout.contains(words), "\(words)")
        }
        #expect(!r.stdout.contains("What the customer sees"))
        #expect(r.stderr.contains("обработано 2 сообщения") && r.stderr.contains("ошибок: 0"), "\(r.stderr)")
        let unknown = try await CLI.run(["demo", "--lang", "fr"])
        #expect(unknown.status == 0 && unknown.stdout.contains("What the customer sees"))
        #expect(unknown.stderr.contains(#"no interface in "fr"; English is used"#))
        let page = try await CLI.run(["demo", "--lang", "ar", "--html", "-"])
        #expect(page.status == 0)
        #expect(page.stdout.contains(#"<html lang="ar" dir="rtl">"#) && page.stdout.contains("ما يراه العميل"))
    }

    /// `--accept-language` (or serve's variable for it): the page is asked for that language; `--lang` the
    /// page `--html` writes speaks it; a value that is no language list is refused before any fetch.
    @Test func previewAsksForALanguageAndWritesItsPageInOne() async throws {
        let server = try await PageServer.start { path, headers in
            guard path == "/shop" else { return .init(status: 404) }  // the site's other addresses
            let asked = headers.first { $0.0.lowercased() == "accept-language" }?.1 ?? ""
            return .html(asked.hasPrefix("ru") ? "<title>Магазин</title>" : "<title>The shop</title>")
        }
        try await server.scoped {
            let url = server.baseURL + "/shop"
            func title(_ r: CLI.Result) throws -> String? {
                let message = try CLI.json(try #require(r.lines.first))
                let data = try #require(message["data"] as? String)
                return ((try CLI.json(data))["body"] as? [String: Any])?["title"] as? String
            }
            #expect(try title(try await CLI.run(["preview", "--allow-private", url])) == "The shop")
            #expect(
                try title(try await CLI.run(["preview", "--allow-private", "--accept-language", "ru", url]))
                    == "Магазин")
            let variable = try await CLI.run(
                ["preview", "--allow-private", url], environment: ["DESKKIT_ACCEPT_LANGUAGE": "ru-RU, en;q=0.5"])
            #expect(try title(variable) == "Магазин")
            let bad = try await CLI.run(["preview", "--allow-private", "--accept-language", "english please", url])
            #expect(bad.status == 64 && bad.stderr.contains(#"--accept-language: the language has "english please""#))
            let badVariable = try await CLI.run(
                ["preview", "--allow-private", url], environment: ["DESKKIT_ACCEPT_LANGUAGE": "english please"])
            #expect(
                badVariable.status == 64
                    && badVariable.stderr.contains(#"DESKKIT_ACCEPT_LANGUAGE: the language has "english please""#),
                "\(badVariable.stderr)")
            let page = try await CLI.run(["preview", "--allow-private", "--lang", "zh-CN", "--html", "-", url])
            #expect(page.stdout.contains(#"<html lang="zh-Hans" dir="ltr">"#), "\(page.stdout.prefix(300))")
            #expect(page.stdout.contains("的预览") && page.stdout.contains("客户看到的内容"))
        }
    }
}
