import Testing

@testable import DeskKitMetadata

/// One rule for what a `<meta>` declares (the HTML standard's prescan rule and "extract a character
/// encoding from a meta element"), one reader of a tag's attributes for the prescan ("get an attribute"),
/// and one table of the Encoding Standard's labels — the prescan and the parser's late declarations agree.
struct EncodingDeclarationTests {
    @Test(arguments: [
        ("text/html; charset=koi8-r", "koi8-r"),
        ("text/html, charset=koi8-r", "koi8-r"),  // a comma: the rule looks for "charset", not for `;`
        ("text/html;charset = 'koi8-r' ", "koi8-r"),
        (#"text/html; CHARSET="windows-1251""#, "windows-1251"),
        ("text/html; charset=utf-8;foo", "utf-8"),
        ("charsetx; charset=gbk", "gbk"),  // the first "charset" has no `=`: the next is looked for
        ("text/html; charsetcharset=big5", "big5"),
    ])
    func aCharsetIsExtractedFromContent(_ content: String, _ label: String) {
        #expect(MetaCharset.extract(from: content) == Substring(label))
    }

    @Test(arguments: ["text/html", "text/html; charset=", #"text/html; charset="koi8-r"#, "charset='x", ""])
    func nothingIsExtractedWithoutAValue(_ content: String) {
        #expect(MetaCharset.extract(from: content) == nil)
    }

    @Test func charsetDecidesAloneAndTheLabelsAreTheStandards() {
        func declared(_ charset: String?, _ httpEquiv: String? = nil, _ content: String? = nil) -> String? {
            MetaCharset.declared(charset: charset, httpEquiv: httpEquiv, content: content)?.name
        }
        #expect(declared("Shift_JIS") == "CP932")
        #expect(declared(" latin1\t") == "WINDOWS-1252")
        #expect(declared("iso-8859-9") == "WINDOWS-1254")  // the standard reads ISO-8859-9 as windows-1254
        #expect(declared("utf-16le") == "UTF-8")  // a UTF-16 label in markup read as ASCII is UTF-8
        #expect(declared("x-user-defined") == "WINDOWS-1252")
        #expect(declared("x-klingon", "content-type", "text/html; charset=koi8-r") == nil)  // charset= decides
        #expect(declared(nil, "Content-Type", "text/html; charset=koi8-r") == "KOI8-R")
        #expect(declared(nil, "refresh", "text/html; charset=koi8-r") == nil)  // no pragma, no declaration
        #expect(declared(nil, "content-type", "text/html; charset=x-klingon") == nil)
        #expect(declared("cp932") == nil)  // iconv's name, not a label of the standard
        #expect(declared("iso-2022-kr") == nil)  // "replacement": says nothing about the text
    }

    @Test func everyLabelNamesOneEncodingThatICanDecode() throws {
        var seen: [String: String] = [:]
        for encoding in WebEncoding.all {
            for label in encoding.labels {
                #expect(seen[label] == nil, "\(label) is a label of \(seen[label] ?? "") and \(encoding.name)")
                seen[label] = encoding.name
                #expect(WebEncoding.labelled(label.uppercased()) == encoding)
            }
            if encoding.kind != .utf8, encoding.kind != .utf16 {
                #expect(LegacyDecoder(name: encoding.name) != nil, "iconv cannot read \(encoding.name)")
            }
        }
        #expect(seen.count >= 220)  // the standard lists 228 labels, 6 of them for "replacement"
    }

    @Test func detectorsNamesMapToTheTable() {
        #expect(WebEncoding.detected("SHIFT_JIS")?.name == "CP932")
        #expect(WebEncoding.detected("UHC")?.name == "CP949")
        #expect(WebEncoding.detected("MAC-CYRILLIC")?.name == "MAC-CYRILLIC")
        #expect(WebEncoding.detected("GB18030")?.name == "GB18030")
        #expect(WebEncoding.detected("IBM855") == nil)
    }

    /// The prescan steps over tags as the standard does: a `<meta` inside another tag's attribute value or
    /// in a comment declares nothing; `<!-->` closes its comment; the first of two attributes counts.
    @Test(
        arguments: [
            (#"<div title="<meta charset=koi8-r>"><meta charset="windows-1251">"#, "WINDOWS-1251"),
            (#"<!-- <meta charset=koi8-r> --><meta charset=windows-1251>"#, "WINDOWS-1251"),
            (#"<!--><meta charset=koi8-r>"#, "KOI8-R"),
            (#"<meta charset="koi8-r" charset="windows-1251">"#, "KOI8-R"),
            (#"<meta http-equiv="Content-Type" content="text/html, charset=koi8-r">"#, "KOI8-R"),
            (#"<meta content="text/html; charset=koi8-r" http-equiv=content-type>"#, "KOI8-R"),
            (#"<meta/charset="koi8-r"/>"#, "KOI8-R"),
            (#"<meta charset=koi8-r/>"#, nil),  // an unquoted value runs to white space or `>`: "koi8-r/"
            (#"<meta charset=x-klingon><meta charset=koi8-r>"#, "KOI8-R"),  // an unknown label: the next meta
            (#"<?xml charset="koi8-r"?><meta charset=windows-1251>"#, "WINDOWS-1251"),
            (#"<meta name="x" content="charset=koi8-r">"#, nil),  // no http-equiv
            (#"<metacharset=koi8-r>"#, nil),
            (#"</head><meta charset=koi8-r>"#, nil),
        ] as [(String, String?)])
    func thePrescanReadsTagsAsTheStandard(_ head: String, _ expected: String?) {
        let bytes = Array(head.utf8)
        let found = bytes.withUnsafeBufferPointer { CharsetSniffer.metaCharset($0)?.name }
        #expect(found == expected, "\(head)")
    }

    @Test func getAnAttributeReadsAsTheStandard() {
        let tag = Array(#" A=1 b = "Two > 2" /c='x' d e=>"#.utf8)
        var out: [String] = []
        let end = tag.withUnsafeBufferPointer { b in
            var reader = PrescanAttributes(b, from: 0)
            while let (name, value) = reader.next() { out.append("\(name)=\(value)") }
            return reader.position
        }
        #expect(out == ["a=1", "b=two > 2", "c=x", "d=", "e="])
        #expect(end == tag.count)
    }

    /// The late declaration the parser reads (from libxml2's attributes) follows the same rule as the
    /// prescan: a comma separates the charset in `content`, and an unknown `charset=` is passed over.
    @Test func aLateDeclarationFollowsTheSameRule() {
        let filler = String(repeating: "<meta name=\"x\" content=\"y\">", count: 3_000)  // past the window
        for meta in [
            #"<meta http-equiv="Content-Type" content="text/html, charset=windows-1251">"#,
            #"<meta charset="x-klingon"><meta charset="windows-1251">"#,
        ] {
            let page =
                Array("<html><head>\(filler)\(meta)<title>".utf8) + [
                    0xC7, 0xE0, 0xE3, 0xEE, 0xEB, 0xEE, 0xE2, 0xEE, 0xEA,
                ]
                + Array("</title></head><body></body></html>".utf8)
            let m = MetadataExtractor.extract(html: page, pageURL: nil)
            #expect(m.charset.name == "WINDOWS-1251", "\(meta)")
            #expect(m.title == "Заголовок", "\(meta)")
        }
    }
}

/// The head's fields, judged by the same table as the resolution: an `itemprop="headline"` is a title the
/// head gave (the collector once knew only `itemprop="name"`), so the parser stops at the end of the head.
struct HeadFieldsTests {
    @Test func everyTitleSourceOfTheTableEndsTheReadingAtTheHead() {
        for title in [#"<meta itemprop="headline" content="H">"#, #"<meta name="title" content="H">"#] {
            let page = Array(
                """
                <html><head>\(title)<meta name="description" content="D"><meta itemprop="image" content="/i.png">
                </head><body>\(String(repeating: "<div>Some words of text, not a heading.</div>", count: 2_000))</body></html>
                """.utf8)
            let m = MetadataExtractor.extract(html: page, pageURL: "https://example.com/")
            #expect(m.title == "H")
            #expect(m.stoppedEarly, "\(title)")
            #expect(m.bytesParsed < 8_192, "\(title)")  // not the body, in search of a title
        }
    }
}
