import DeskKitMetadata
import Testing

func extract(_ html: String, url: String? = "https://example.com/articles/1", limits: ExtractionLimits = .default)
    -> PageMetadata
{
    MetadataExtractor.extract(html: Array(html.utf8), pageURL: url, limits: limits)
}

@Suite("Preview field precedence")
struct PrecedenceTests {
    let all = """
        <html><head><title>Doc title</title>
        <meta name="twitter:title" content="Twitter title"><meta property="og:title" content="OG title">
        <meta name="description" content="Meta description"><meta name="twitter:description" content="Twitter description">
        <meta property="og:description" content="OG description">
        <meta name="twitter:image" content="/tw.png"><meta property="og:image" content="/og.png">
        <meta property="og:image:url" content="/og-url.png"><meta property="og:image:secure_url" content="https://cdn.example.com/og-secure.png">
        <link rel="canonical" href="/canonical"><meta property="og:url" content="https://example.com/og-url">
        <meta name="application-name" content="App"><meta property="og:site_name" content="OG Site">
        </head><body></body></html>
        """

    @Test func openGraphWins() {
        let m = extract(all)
        #expect(m.title == "OG title")
        #expect(m.description == "OG description")
        #expect(m.image == "https://cdn.example.com/og-secure.png")
        #expect(m.url == "https://example.com/og-url")
        #expect(m.siteName == "OG Site")
        #expect(m.canonicalURL == "https://example.com/canonical")
        #expect(m.images.first?.url == "https://example.com/og.png")
    }

    @Test func thenTwitterByNameOrProperty() {
        let m = extract(
            """
            <head><title>Doc</title><meta name="twitter:title" content="T"><meta property="twitter:description" content="D">
            <meta name="twitter:image" content="https://example.com/t.png"><meta name="description" content="M"></head>
            """)
        #expect(m.title == "T")
        #expect(m.description == "D")
        #expect(m.image == "https://example.com/t.png")
    }

    @Test func thenTheDocument() {
        let m = extract(
            """
            <head><title> Doc &amp; more </title><meta name="description" content="M"><link rel="canonical" href="/c">
            <meta name="application-name" content="App"></head>
            """)
        #expect(m.title == "Doc & more")
        #expect(m.description == "M")
        #expect(m.url == "https://example.com/c")
        #expect(m.siteName == "App")
        #expect(m.image == nil)
    }

    @Test func junkURLValuesAreSkippedLikeMissingTags() {
        for junk in ["null", "undefined", "about:blank", "#", "", "   ", "NULL", "None"] {
            let m = extract(
                """
                <head><meta property="og:url" content="\(junk)"><link rel="canonical" href="https://example.com/c">
                <meta property="og:image" content="\(junk)"><meta name="twitter:image" content="/t.png"></head>
                """)
            #expect(m.url == "https://example.com/c", "\(junk)")
            #expect(m.image == "https://example.com/t.png", "\(junk)")
            #expect(m.images.isEmpty, "\(junk)")
        }
        let bare = extract(
            #"<head><link rel="canonical" href="null"><meta property="og:image" content="undefined"></head>"#)
        #expect(bare.url == "https://example.com/articles/1")
        #expect(bare.image == nil)
    }

    @Test func openGraphByPropertyBeatsOpenGraphByName() {
        let m = extract(
            """
            <head><meta name="og:title" content="By name"><meta property="og:title" content="By property">
            <meta name="og:description" content="Only by name"></head>
            """)
        #expect(m.title == "By property")
        #expect(m.description == "Only by name")
    }

    @Test func propertiesSeparatedBySpaces() {
        let m = extract(
            """
            <head><title>Element</title><meta property="og:title twitter:title" content="A title">
            <meta property="dc:description og:description" content="A description"></head>
            """)
        #expect(m.title == "A title")
        #expect(m.description == "A description")
        #expect(m.twitter.first?.value == "A title")
    }

    @Test func siteNameFallsBackToTheHost() {
        #expect(extract("<title>x</title>", url: "https://shop.example.co.uk/p").siteName == "shop.example.co.uk")
    }

    @Test func ogImagePropertiesGroupByImage() {
        let m = extract(
            """
            <meta property="og:image" content="https://example.com/a.png"><meta property="og:image:width" content="640">
            <meta property="og:image:height" content="480"><meta property="og:image:alt" content="A">
            <meta property="og:image" content="https://example.com/b.png"><meta property="og:image:type" content="image/png">
            """)
        #expect(m.images.count == 2)
        #expect(m.images[0].width == 640 && m.images[0].height == 480 && m.images[0].alt == "A")
        #expect(m.images[1].type == "image/png")
        #expect(m.image == "https://example.com/a.png")
    }
}

@Suite("Values")
struct ValueTests {
    @Test func entitiesDecodedEvenWhenDoubleEscaped() {
        let m = extract(
            #"<meta property="og:title" content="Tom &amp;amp; Jerry &amp;#39;s &amp;quot;Show&amp;quot; &hellip;">"#)
        #expect(m.title == "Tom & Jerry 's \"Show\" …")
    }

    @Test func whiteSpaceCollapsedAndTrimmed() {
        #expect(extract("<title>\n  A \t\u{00A0} title\n\n</title>").title == "A title")
    }

    @Test func lengthCapped() {
        var limits = ExtractionLimits()
        limits.maxTitleLength = 10
        let m = extract("<title>" + String(repeating: "word ", count: 50) + "</title>", limits: limits)
        #expect(m.title == "word word…")
        #expect(m.title?.count == 10)
    }

    @Test func urlsResolvedAgainstBaseHrefAndPage() {
        let m = extract(
            """
            <head><base href="https://static.example.com/assets/"><meta property="og:image" content="img/a.png">
            <meta property="og:url" content="//example.com/canonical"></head>
            """, url: "http://example.com/page")
        #expect(m.image == "https://static.example.com/assets/img/a.png")
        #expect(m.url == "https://example.com/canonical", "a scheme-relative URL takes the base's scheme")
        #expect(m.baseURL == "https://static.example.com/assets/")
    }

    /// `#`, `?` and `/` before a combining mark still delimit: URLs are split by code point, not Character.
    @Test func delimitersBeforeCombiningMarks() {
        let m = extract(
            #"<meta property="og:image" content="a/b?\#u{301}x#\#u{64B}y">"#, url: "https://example.com/p/q")
        #expect(m.image == "https://example.com/p/a/b?\u{301}x#\u{64B}y")
        let up = extract(
            #"<meta property="og:image" content="../\#u{301}/../i.png">"#, url: "https://example.com/p/q/r")
        #expect(up.image == "https://example.com/p/i.png")
        #expect(extract("<title>a &amp;amp;\u{301} b</title>").title == "a &\u{301} b")
    }

    @Test(arguments: [
        "javascript:alert(1)", "data:image/png;base64,AAAA", "vbscript:msgbox", "ftp://example.com/a.png", "...",
    ])
    func unsafeOrJunkURLsDropped(_ value: String) {
        let m = extract(#"<meta property="og:image" content="\#(value)"><meta property="og:url" content="\#(value)">"#)
        #expect(m.image == nil)
        #expect(m.url == "https://example.com/articles/1")
    }

    /// Fuzz finding (the check, not the extractor, was wrong): `https://` followed by U+FF9E, a halfwidth
    /// sound mark that extends the `/` as a Character. Hosts with forbidden characters are dropped too.
    @Test func urlHostsMustBePlausible() {
        let m = extract(
            #"<link rel="canonical" href="https://\#u{FF9E}\#u{FF9E}<html><hea\#u{FF9E}.com'canonical.html">"#)
        #expect(m.canonicalURL == nil)
        #expect(
            extract(#"<meta property="og:image" content="https://\#u{FF9E}a.com/i.png">"#).image
                == "https://\u{FF9E}a.com/i.png")
        #expect(extract(#"<meta property="og:image" content="https://a|b.com/i.png">"#).image == nil)
        #expect(
            extract(#"<meta property="og:image" content="http://[2001:db8::1]:8080/i.png">"#).image
                == "http://[2001:db8::1]:8080/i.png")
    }

    @Test func garbageCanonicalFallsBackToThePage() {
        #expect(extract(#"<link rel="canonical" href="http://intranet">"#).url == "https://example.com/articles/1")
    }

    @Test func svgTitleIsNotTheTitle() {
        #expect(extract("<body><svg><title>icon</title></svg><h1>Heading</h1></body>").title == "Heading")
        #expect(extract("<head><title>Real</title></head><body><svg><title>icon</title></svg></body>").title == "Real")
    }

    @Test func jsonLDInTheHead() {
        let m = extract(
            """
            <head><script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"NewsArticle",
            "headline":"LD headline","description":"LD description","image":[{"url":"https://example.com/ld.jpg"}],
            "publisher":{"@type":"Organization","name":"LD Publisher"}}]}</script></head>
            """)
        #expect(m.title == "LD headline")
        #expect(m.description == "LD description")
        #expect(m.image == "https://example.com/ld.jpg")
        #expect(m.siteName == "LD Publisher")
    }

    @Test func iconsThemeColorItemprop() {
        let m = extract(
            """
            <head><link rel="icon" href="/favicon.ico"><link rel="shortcut icon" href="/s.ico">
            <link rel="apple-touch-icon" sizes="180x180" href="/apple.png"><meta name="theme-color" content="#336699">
            <meta itemprop="name" content="Item name"><meta property="og:locale" content="de_DE"><meta property="og:type" content="article"></head>
            """)
        #expect(
            m.icons.map(\.href) == [
                "https://example.com/favicon.ico", "https://example.com/s.ico", "https://example.com/apple.png",
            ])
        #expect(m.icons[2].sizes == "180x180")
        #expect(m.themeColor == "#336699")
        #expect(m.title == "Item name")
        #expect(m.locale == "de_DE")
        #expect(m.type == "article")
        #expect(m.image == nil, "icons are never the preview image")
    }

    @Test func bodyFallbacks() {
        let m = extract(
            """
            <html><body><img src="/logo.svg?v=1"><p>intro</p><h1>Main <b>heading</b></h1><img src="/x">
            <img src="/hero.jpg"><p>First paragraph after the heading.</p></body></html>
            """)
        #expect(m.title == "Main heading")
        #expect(m.description == "First paragraph after the heading.")
        #expect(m.image == "https://example.com/hero.jpg")
    }

    /// No-break spaces are spaces when a paragraph is weighed: a language switcher padded with `&nbsp;` (Apache's
    /// manual) is a label, not prose, and the summary after it is the description.
    @Test func noBreakSpacesDoNotMakeALabelProse() {
        let m = extract(
            """
            <body><h1>Apache Module mod_rewrite</h1><div class="toplang"><p><span>Available Languages: </span>
            <a href="/en/">&nbsp;en&nbsp;</a> |
            <a href="/fr/">&nbsp;fr&nbsp;</a></p></div><h3>Summary</h3>
            <p>The mod_rewrite module uses a rule-based rewriting engine to rewrite requested URLs on the fly.</p></body>
            """)
        #expect(
            m.description
                == "The mod_rewrite module uses a rule-based rewriting engine to rewrite requested URLs on the fly.")
    }

    /// A paragraph or block that only tells the reader about their browser (JavaScript off, an old browser, a
    /// cookie banner) is skipped for the next one; with nothing else, the card has no description. A page
    /// about such a thing keeps its words.
    @Test func browserNoticesAreNoDescription() {
        let title = "<head><title>Order 1138 – Acme Parcel Tracking</title></head>"
        let shell = extract(
            title + #"<body><div id="root"></div><p>Please enable JavaScript in your browser to use this site.</p>"#)
        #expect(shell.title == "Order 1138 – Acme Parcel Tracking")
        #expect(shell.description == nil)
        let block = extract(title + "<body><div>You need to enable JavaScript to run this app.</div></body>")
        #expect(block.description == nil)
        let notices = extract(
            title + """
                <body><p>Your browser is out of date. Update your browser for more security and speed.</p>
                <p>This website uses cookies to give you the best experience.</p>
                <main><p>Your parcel left the depot at 9:40 and arrives today.</p></main></body>
                """)
        #expect(notices.description == "Your parcel left the depot at 9:40 and arrives today.")
        let help = extract(
            """
            <head><title>How to enable JavaScript in your browser</title></head><body><h1>Enable JavaScript</h1>
            <p>To enable JavaScript in Chrome, open Settings, then Privacy and security.</p></body>
            """)
        #expect(help.description == "To enable JavaScript in Chrome, open Settings, then Privacy and security.")
    }
}
