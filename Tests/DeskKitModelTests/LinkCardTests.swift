import DeskKitJSON
import DeskKitModel
import Testing

@Suite("A link card's decisions")
struct LinkCardTests {
    static let url = "https://shop.example.com/orders/1138?x=1"
    static let image = "https://cdn.example.com/i.png"

    @Test func aSafeLinkIsTheLinkAndItsHostTheFooterUnderASiteName() throws {
        let card = try #require(LinkCard(URLPreview(url: Self.url, siteName: "Shop", title: "Order")))
        #expect(card.link == Self.url)
        #expect(card.site?.text == "Shop")
        #expect(card.host == "shop.example.com")
        let unnamed = try #require(LinkCard(URLPreview(url: "https://WWW.Example.COM:8443/a", title: "Order")))
        #expect(unnamed.site?.text == "www.example.com", "the host stands for a missing site name")
        #expect(unnamed.host == nil, "and is not shown twice")
        #expect(
            try #require(LinkCard(URLPreview(url: "https://[2001:DB8::1]/", title: "t"))).site?.text == "[2001:db8::1]")
    }

    @Test(arguments: ["/account/settings", "//evil.example/x", "https:\\\\evil.example", "javascript:alert(1)"])
    func anUnsafeURLIsNoLinkAndNoImage(_ unsafe: String) throws {
        let card = try #require(LinkCard(URLPreview(url: unsafe, siteName: "S", title: "T", image: unsafe)))
        #expect(card.link == nil && card.host == nil && card.image == nil)
        #expect(card.site?.text == "S" && card.title?.text == "T")
        #expect(LinkCard(URLPreview(url: unsafe, image: unsafe)) == nil, "nothing left to show")
    }

    @Test func theImagesAltFollowsWhatIsBesideIt() throws {
        let beside = try #require(LinkCard(URLPreview(url: Self.url, description: "d", image: Self.image)))
        #expect(beside.image?.alt == .decorative)
        let named = try #require(LinkCard(URLPreview(url: Self.url, siteName: "Shop", image: Self.image)))
        #expect(named.image?.alt == .text("Shop"))
        let byHost = try #require(LinkCard(URLPreview(url: Self.url, image: Self.image)))
        #expect(byHost.image?.alt == .text("shop.example.com"))
        let alone = try #require(LinkCard(URLPreview(url: "/relative", image: Self.image)))
        #expect(alone.image?.alt == .interfaceImageWord)
    }

    @Test func anImagesSizeIsBothSidesInRangeOrNone() throws {
        let sized = try #require(
            LinkCard(URLPreview(url: Self.url, title: "t", image: Self.image, imageWidth: 1200, imageHeight: 630)))
        #expect(sized.image?.width == 1200 && sized.image?.height == 630)
        #expect(sized.image?.size.map { [$0.width, $0.height] } == [1200, 630])
        for (w, h) in [(1200, nil), (0, 630), (1200, URLPreview.maxImageSide + 1)] as [(Int?, Int?)] {
            let card = try #require(
                LinkCard(
                    url: Self.url, siteName: nil, title: "t", description: nil, image: Self.image, imageWidth: w,
                    imageHeight: h))
            #expect(card.image?.size == nil && card.image?.width == nil && card.image?.height == nil)
        }
    }

    @Test func textsAreTrimmedAndClippedInGraphemes() throws {
        let limits = LinkCard.Limits(title: 5, description: 3)
        let family = "👩‍👩‍👧‍👦"
        let flag = "🇯🇵"
        let accented = "e\u{301}"
        let hangul = "\u{1112}\u{1161}\u{11AB}"  // 한 as jamo: one grapheme
        let cases: [(String, String, Bool)] = [
            ("  \u{FEFF}Order\n ", "Order", false),
            ("Order #1138", "Orde…", true),
            (String(repeating: family, count: 9), String(repeating: family, count: 4) + "…", true),
            (String(repeating: flag, count: 5), String(repeating: flag, count: 5), false),
            (String(repeating: flag, count: 6), String(repeating: flag, count: 4) + "…", true),
            (String(repeating: accented, count: 7), String(repeating: accented, count: 4) + "…", true),
            (String(repeating: hangul, count: 5), String(repeating: hangul, count: 5), false),
            ("abc  def", "abc…", true),  // no white space before the ellipsis
        ]
        for (title, shown, clipped) in cases {
            let card = try #require(LinkCard(URLPreview(url: Self.url, title: title), limits: limits))
            #expect(card.title?.text == shown, "\(title)")
            #expect(card.title?.isClipped == clipped)
            #expect(card.title.map { $0.text.count <= 5 } == true)
        }
        let card = try #require(LinkCard(URLPreview(url: Self.url, description: "Lost parcels"), limits: limits))
        #expect(card.description?.text == "Lo…")
        #expect(LinkCard(URLPreview(url: Self.url, title: " \n\t ")) == nil, "white space alone is no title")
    }

    @Test func eachTextHasTheDirectionOfItsFirstStrongCharacter() throws {
        let cases: [(String, LinkCard.Direction)] = [
            ("Lost parcels", .leftToRight), ("مرحبا بالعالم", .rightToLeft), ("שלום", .rightToLeft),
            ("1138 — مرحبا", .rightToLeft), ("«1138»", .neutral), ("📦 123", .neutral), ("Привет", .leftToRight),
            ("東京", .leftToRight), ("\u{2067}abc\u{2069} שלום", .rightToLeft), ("\u{200F}123", .rightToLeft),
        ]
        for (title, direction) in cases {
            let card = try #require(LinkCard(URLPreview(url: Self.url, siteName: title, title: title)))
            #expect(card.title?.direction == direction, "\(title)")
            #expect(card.site?.direction == direction)
        }
    }

    @Test func aDecodedMessageGivesTheCardOfItsPreviewOnly() throws {
        let data =
            #"{"type":"SENDBIRD_DESK_URL_PREVIEW","body":{"url":"https://example.com/a","title":"T","image":"https://example.com/i.png","image_width":64,"image_height":32}}"#
        var envelope = JSONWriter(capacity: 0)
        envelope.member("type", "MESG", first: true)
        envelope.member("custom_type", "SENDBIRD_DESK_RICH_MESSAGE")
        envelope.member("data", data)
        envelope.raw("}")
        let message = DeskMessage(json: String(decoding: envelope.bytes, as: UTF8.self))
        let card = try #require(LinkCard(message))
        #expect(card.link == "https://example.com/a" && card.image?.width == 64)
        #expect(LinkCard(DeskMessage(json: #"{"type":"MESG","message":"hello"}"#)) == nil)
    }

    @Test func theJSONNamesEveryDecision() throws {
        let card = try #require(
            LinkCard(
                URLPreview(
                    url: Self.url, siteName: "Shop", title: "Order", image: Self.image, imageWidth: 2,
                    imageHeight: 1)))
        var w = JSONWriter(capacity: 0)
        card.write(to: &w)
        let json = try JSONValue.parse(String(decoding: w.bytes, as: UTF8.self))
        #expect(json["link"]?.stringValue == Self.url)
        #expect(json["host"]?.stringValue == "shop.example.com")
        #expect(json["image"]?["alt"]?.stringValue == "")
        #expect(json["image"]?["width"]?.int64Value == 2)
        #expect(json["title"]?["dir"]?.stringValue == "ltr")
        #expect(json["title"]?["clipped"]?.boolValue == false)
        #expect(json["description"] == .null)
    }
}
