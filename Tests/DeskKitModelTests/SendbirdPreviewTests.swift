import DeskKitModel
import Testing

/// Sendbird's own link preview (`og_tag` in the Platform API, `ogMetaData` in `@sendbird/chat`): read from the
/// envelope, drawn as the card of a message without a Desk preview — the decision the web module's `linkCard` and
/// `renderMessage` make from the same code.
@Suite("Sendbird's own preview")
struct SendbirdPreviewTests {
    @Test func thePlatformAPIsOGTagIsTheCardOfAPlainMessage() throws {
        let message = DeskMessage(
            json: #"""
                {"type":"MESG","message":"see https://e.com/a","og_tag":{"og:url":"https://e.com/a","og:title":"Platform OG",
                "og:description":"D","og:image":{"url":"http://e.com/i.png","secure_url":"https://e.com/i.png","width":640,"height":320.0}}}
                """#)
        let preview = try #require(message.sendbirdPreview)
        #expect(preview.url == "https://e.com/a" && preview.title == "Platform OG" && preview.description == "D")
        #expect(preview.image == "https://e.com/i.png", "the secure image first")
        #expect(preview.imageWidth == 640 && preview.imageHeight == 320)
        let card = try #require(LinkCard(message))
        #expect(card.title?.text == "Platform OG" && card.link == "https://e.com/a")
    }

    @Test func theSDKsOGMetaDataToo() throws {
        let message = DeskMessage(
            json: #"""
                {"type":"MESG","message":"x","ogMetaData":{"url":"https://e.com/b","title":"SDK OG","defaultImage":{"url":"https://e.com/j.png","width":"640"}}}
                """#)
        let preview = try #require(message.sendbirdPreview)
        #expect(preview.title == "SDK OG" && preview.image == "https://e.com/j.png")
        #expect(preview.imageWidth == nil, "a size written as a string is no size")
    }

    @Test func aDeskPreviewComesFirstAndWhatIsNoPreviewIsNone() throws {
        let desk = DeskMessage(
            json: #"""
                {"type":"MESG","custom_type":"SENDBIRD_DESK_RICH_MESSAGE","data":"{\"type\":\"SENDBIRD_DESK_URL_PREVIEW\",\"body\":{\"url\":\"https://d.com/\",\"title\":\"Desk\"}}",
                "og_tag":{"og:url":"https://e.com/a","og:title":"Platform OG"}}
                """#)
        #expect(LinkCard(desk)?.title?.text == "Desk")
        for og in [#""og_tag":"text""#, #""og_tag":[1]"#, #""og_tag":{"og:title":"no URL"}"#, #""og_tag":null"#] {
            let message = DeskMessage(json: #"{"type":"MESG","message":"x",\#(og)}"#)
            #expect(message.sendbirdPreview == nil && LinkCard(message) == nil, "\(og)")
            #expect(message.problems.isEmpty, "Sendbird's preview is not DeskKit's to validate")
        }
        let hostile = DeskMessage(
            json:
                #"{"type":"MESG","og_tag":{"og:url":"javascript:alert(1)","og:title":"T","og:image":{"url":"data:x"}}}"#
        )
        let card = try #require(LinkCard(hostile))
        #expect(card.link == nil && card.image == nil)
    }
}
