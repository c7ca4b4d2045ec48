import DeskKitMetadata
import Testing

@testable import DeskKitPreview

/// Which tags fill which card field is one table (`CardField`): the card builder's "is it the page's own
/// tag?" and "is a field left for oEmbed?" read it as the resolution does.
struct CardFieldTests {
    static func page(_ head: String) -> PageMetadata {
        MetadataExtractor.extract(
            html: Array("<html><head>\(head)</head><body></body></html>".utf8), pageURL: "https://example.com/a")
    }

    /// `og:image:url`, `og:image:secure_url` and `twitter:image:src` are images the page tagged: no oEmbed
    /// answer is asked for them (the builder once knew only `og:image` and `twitter:image`).
    @Test(arguments: [
        #"<meta property="og:image:url" content="/a.png">"#,
        #"<meta property="og:image:secure_url" content="https://example.com/a.png">"#,
        #"<meta name="twitter:image:src" content="/a.png">"#,
        #"<meta property="og:image" content="/a.png">"#,
    ])
    func everyImageTagCountsAsTheImage(_ image: String) {
        let m = Self.page(
            #"<meta property="og:title" content="T"><meta property="og:site_name" content="S">"# + image)
        #expect(m.image != nil)
        #expect(!CardBuilder.leavesFieldsToFill(m))
    }

    @Test func aFallbackLeavesTheFieldToFill() {
        let m = Self.page(
            #"<title>Doc</title><meta property="og:site_name" content="S"><meta property="og:image" content="/a.png">"#)
        #expect(m.title == "Doc")
        #expect(CardBuilder.leavesFieldsToFill(m))
        let tagged = Self.page(
            #"<meta name="twitter:title" content="T"><meta property="og:site_name" content="S"><meta property="og:image" content="/a.png">"#
        )
        #expect(!CardBuilder.leavesFieldsToFill(tagged))
    }
}
