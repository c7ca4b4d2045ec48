import DeskKitMetadata
import Testing

/// The description of a page without `<p>` and without a meta description: its first block of visible
/// body text.
@Suite("Body text description")
struct BodyTextTests {
    let sentence = "Our store ships handmade ceramic mugs to every country in Europe within five days."

    func description(_ body: String, limits: ExtractionLimits = .default) -> String? {
        extract("<html><head><title>T</title></head><body>\(body)</body></html>", limits: limits).description
    }

    @Test func textInDivsOrDirectlyInTheBody() {
        #expect(description("<div><div class=x>\(sentence)</div></div>") == sentence)
        #expect(description(sentence) == sentence)
        #expect(
            description(
                "<section><span>Our store</span> <b>ships</b> handmade ceramic mugs to every country in Europe within five days.</section>"
            ) == sentence)
    }

    @Test func invisibleAndNavigationTextIsSkipped() {
        for wrapper in [
            "script", "style", "noscript", "nav", "header", "footer", "aside", "form", "button", "template",
        ] {
            let body =
                "<\(wrapper)>Some words that must not become the description of this page at all</\(wrapper)><div>\(sentence)</div>"
            #expect(description(body) == sentence, "\(wrapper)")
        }
        for hidden in [#"hidden"#, #"aria-hidden="true""#, #"style="display: none""#, #"style="visibility:hidden""#] {
            let body =
                "<div \(hidden)>Some words that must not become the description of this page at all</div><div>\(sentence)</div>"
            #expect(description(body) == sentence, "\(hidden)")
        }
    }

    @Test func commentsAndCDATANeverLeakIn() {
        #expect(description("<div><!-- a comment with many words in it that is long --> \(sentence)</div>") == sentence)
        #expect(
            description("<div><![CDATA[ some cdata words that are long enough to count ]]>\(sentence)</div>")
                == sentence)
    }

    @Test func aBlockNeedsAFewWordsAndNotMostlyLinks() {
        #expect(description("<div>Menu</div><div>Home · Shop</div><div>\(sentence)</div>") == sentence)
        let links = #"<div><a href="/a">Home page of the shop</a> <a href="/b">All our ceramic mugs</a> and more</div>"#
        #expect(description(links + "<div>\(sentence)</div>") == sentence)
        #expect(description("<div>Too short</div>") == nil)
        // Scripts written without spaces count characters instead.
        #expect(description("<div>東京で開かれた記者会見で、同社の社長は説明しました。</div>") == "東京で開かれた記者会見で、同社の社長は説明しました。")
    }

    @Test func whiteSpaceCollapsedAndLineBreaksSeparateWords() {
        #expect(
            description(
                "<div>Our store ships\n\n   handmade<br>ceramic mugs to every country in Europe within five days.</div>"
            ) == sentence)
    }

    @Test func cutAtAWordBoundaryUnderTheCap() {
        var limits = ExtractionLimits()
        limits.maxDescriptionLength = 40
        let d = description("<div>\(sentence)</div>", limits: limits)
        #expect(d == "Our store ships handmade ceramic mugs…")
        #expect(d.map { $0.count <= 40 } == true)
    }

    @Test func paragraphsAndMetaDescriptionsStillComeFirst() {
        let paragraph = "A paragraph that reads as a sentence of prose."
        #expect(description("<div>\(sentence)</div><p>\(paragraph)</p>") == paragraph)
        let m = extract(#"<head><meta name="description" content="Meta."></head><body><div>\#(sentence)</div></body>"#)
        #expect(m.description == "Meta.")
    }

    @Test func readingStopsWithinTheBudgetAfterTheText() {
        // A title and the body text in hand: at most the fallback budget more is read.
        let filler = String(repeating: "<div>x</div>", count: 20_000)
        let m = extract("<html><head><title>T</title></head><body><div>\(sentence)</div>\(filler)</body></html>")
        #expect(m.description == sentence)
        #expect(m.stoppedEarly)
        #expect(m.bytesParsed < 64 * 1024)
    }

    @Test func aParagraphMustReadAsProse() {
        let lead = "The module provides a portable way of using operating system functions."
        // Labels before the lead are passed over.
        #expect(description("<p>Source code: Lib/os.py</p><p>\(lead)</p>") == lead)
        // A paragraph of links (a language menu) is not a description.
        let menu =
            #"<p><span>Available languages:</span> <a href="/de">Deutsch</a> | <a href="/en">English</a> | <a href="/fr">Français</a></p>"#
        #expect(description(menu + "<p>\(lead)</p>") == lead)
        // Paragraphs in navigation, footers or hidden elements are not the page's text.
        #expect(
            description("<nav><p>Our shop has the best mugs in the whole wide world</p></nav><p>\(lead)</p>") == lead)
        #expect(
            description("<div hidden><p>Our shop has the best mugs in the whole wide world</p></div><p>\(lead)</p>")
                == lead)
    }

    @Test func shortParagraphsAreTheLastResort() {
        #expect(description("<p>Links</p>") == "Links")
        // After the first heading first, as for long paragraphs.
        #expect(description("<p>Invalid one.</p><h1>Heading</h1><p>The valid one.</p>") == "The valid one.")
        // A block of body text beats a short paragraph.
        #expect(description("<p>Links</p><div>\(sentence)</div>") == sentence)
    }
}
