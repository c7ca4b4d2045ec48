import DeskKitMetadata
import Testing

/// `site_name`: og:site_name > application-name / apple-mobile-web-app-title > app-link and app-card names >
/// `<meta name="publisher">`, JSON-LD publisher or WebSite > the site part of the title > the Twitter handle >
/// the host without `www.`.
@Suite("Site name")
struct SiteNameTests {
    func site(_ head: String, url: String? = "https://www.example.com/a/1") -> String? {
        extract("<html><head>\(head)</head><body><p>text</p></body></html>", url: url).siteName
    }

    /// Each source, with every source below it on the page as well: the higher one wins.
    @Test func eachStepBeatsTheOnesBelowIt() {
        let steps = [
            (#"<meta property="og:site_name" content="OG Site">"#, "OG Site"),
            (#"<meta name="application-name" content="App Name">"#, "App Name"),
            (#"<meta name="apple-mobile-web-app-title" content="Apple Title">"#, "Apple Title"),
            (#"<meta property="al:ios:app_name" content="iOS App">"#, "iOS App"),
            (#"<meta property="al:android:app_name" content="Android App">"#, "Android App"),
            (#"<meta name="twitter:app:name:iphone" content="iPhone Card">"#, "iPhone Card"),
            (#"<meta name="twitter:app:name:googleplay" content="Play Card">"#, "Play Card"),
            (#"<meta name="publisher" content="Meta Publisher">"#, "Meta Publisher"),
            (
                #"<script type="application/ld+json">{"@type":"NewsArticle","headline":"H","publisher":{"@type":"Organization","name":"LD Publisher"}}</script>"#,
                "LD Publisher"
            ),
            (#"<script type="application/ld+json">{"@type":"WebSite","name":"LD Website"}</script>"#, "LD Website"),
            ("<title>A Headline About Things - Title Site</title>", "Title Site"),
            (#"<meta name="twitter:site" content="@handle">"#, "handle"),
        ]
        for i in steps.indices {
            let head = steps[i...].map(\.0).joined(separator: "\n")
            #expect(site(head) == steps[i].1, "step \(i): \(steps[i].1)")
        }
        #expect(site("<title>No separator here</title>") == "example.com")
    }

    @Test func theSitePartOfTheTitle() {
        #expect(site("<title>Bob Dylan - Wikipedia</title>") == "Wikipedia")
        #expect(site("<title>Frontend Code | Code | Nicolas Perriault</title>") == "Nicolas Perriault")
        for separator in [" | ", " - ", " – ", " — ", " · ", " :: ", " » ", " : "] {
            #expect(site("<title>Some headline\(separator)The Site</title>") == "The Site", "\(separator)")
        }
        // The part after the last separator, whichever kind it is.
        #expect(site("<title>Intro - Part one | Daily Planet</title>") == "Daily Planet")
        // Chinese sites separate with `_`.
        #expect(site("<title>海外留学生看两会_教育频道_中国青年网</title>") == "中国青年网")
        // Entities in the title are decoded.
        #expect(site("<title>Passwords for Mac | Mac &amp; i</title>") == "Mac & i")
    }

    @Test func theTitlePartMustBeShortAndNotTheHeadline() {
        // Long: a second headline, not a name.
        #expect(site("<title>Headline - and here is a much longer second part of it</title>") == "example.com")
        // The headline itself at the end: the site stands first.
        #expect(
            site(#"<meta property="og:title" content="Bob Dylan"><title>Wikipedia - Bob Dylan</title>"#) == "Wikipedia")
        // Numbers are not a name.
        #expect(site("<title>Results - 2024</title>") == "example.com")
    }

    @Test func aPublisherURLIsNotAName() {
        #expect(site(#"<meta name="publisher" content="https://plus.google.com/+Example">"#) == "example.com")
    }

    @Test func twitterHandlesOnlyWhenNothingElseNamesTheSite() {
        #expect(site(#"<meta name="twitter:site" content="@verge"><title>Review - The Verge</title>"#) == "The Verge")
        #expect(site(#"<meta name="twitter:site" content="@verge">"#) == "verge")
        #expect(site(#"<meta name="twitter:site" content="not a handle!">"#) == "example.com")
    }

    @Test func theHostWithoutWWWIsTheLastResort() {
        #expect(site("", url: "https://www.businesstoday.in/x") == "businesstoday.in")
        #expect(site("", url: "https://en.wikipedia.org/wiki/X") == "en.wikipedia.org")
        #expect(site("", url: nil) == nil)
    }
}
