import DeskKitMetadata
import Testing

/// JSON-LD as sites write it.
@Suite("JSON-LD")
struct JSONLDTests {
    func page(_ blocks: String...) -> PageMetadata {
        let scripts = blocks.map { #"<script type="application/ld+json">\#($0)</script>"# }.joined()
        return extract("<html><head>\(scripts)</head><body></body></html>")
    }

    let article =
        #"{"@context":"https://schema.org","@type":"NewsArticle","headline":"The Headline","description":"The summary.","image":"https://example.com/a.jpg","publisher":{"@type":"Organization","name":"Daily Planet"}}"#

    func expectArticle(_ m: PageMetadata, _ comment: Comment? = nil) {
        #expect(m.title == "The Headline", comment)
        #expect(m.description == "The summary.", comment)
        #expect(m.image == "https://example.com/a.jpg", comment)
        #expect(m.siteName == "Daily Planet", comment)
    }

    @Test func wrappedInCDATAOrCommentsWithABOMOrATrailingSemicolon() {
        for wrapped in [
            "<![CDATA[\(article)]]>", "//<![CDATA[\n\(article)\n//]]>", "<!--\(article)-->", "\u{FEFF}\(article)",
            "\(article);", "  \n<!-- <![CDATA[ \(article) ]]> -->\n ",
        ] {
            expectArticle(page(wrapped), "\(wrapped.prefix(20))")
        }
    }

    @Test func severalObjectsInOneBlock() {
        let site = #"{"@type":"WebSite","name":"Planet Site","description":"Everything about planets."}"#
        expectArticle(page("\(site)\n\(article)"))
        expectArticle(page("\(site),\(article)"))
        expectArticle(page("[\(site),\(article)]"))
    }

    @Test func graphArraysAndTheArticleBeforeTheSite() {
        let graph =
            #"{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Planet Site","description":"Everything about planets."},{"@type":"BreadcrumbList","name":"Crumbs"},"#
            + article + "]}"
        expectArticle(page(graph))
    }

    @Test func imagesAsStringsObjectsOrArrays() {
        for image in [
            #""https://example.com/a.jpg""#, #"{"@type":"ImageObject","url":"https://example.com/a.jpg"}"#,
            #"[{"@type":"ImageObject","contentUrl":"https://example.com/a.jpg"},"https://example.com/b.jpg"]"#,
            #"["https://example.com/a.jpg"]"#,
        ] {
            let m = page(#"{"@type":"Article","headline":"H","image":\#(image)}"#)
            #expect(m.image == "https://example.com/a.jpg", "\(image)")
        }
    }

    @Test func theWebsiteNameNamesTheSite() {
        #expect(
            page(#"{"@type":"WebSite","name":"Planet Site","url":"https://example.com"}"#).siteName == "Planet Site")
        #expect(page(#"{"@type":["WebSite"],"name":"Planet Site"}"#).siteName == "Planet Site")
        #expect(page(#"{"@type":"http://schema.org/WebSite","name":"Planet Site"}"#).siteName == "Planet Site")
    }

    @Test func aBrokenBlockKeepsWhatCameBeforeTheFault() {
        expectArticle(page("\(article) {\"@type\": broken"))
        #expect(page("{not json").title == nil)
    }
}
