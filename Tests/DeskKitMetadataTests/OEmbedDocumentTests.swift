import DeskKitMetadata
import Testing

/// oEmbed answers read from their JSON and XML forms: typed fields, refusals that name the field, and
/// markup that stays text.
struct OEmbedDocumentTests {
    @Test func theJSONFormIsReadWithItsFieldsTyped() throws {
        let d = try OEmbedDocument.parse(
            Array(
                #"{"type":"video","version":"1.0","title":"  A   video ","author_name":"Ann","provider_name":"Tube","thumbnail_url":"/t.jpg","thumbnail_width":"480","thumbnail_height":360.0,"width":640,"height":null,"html":"<iframe></iframe>","extra":{"nested":[1]}}"#
                    .utf8), format: .json, url: "https://tube.example/oembed?url=x")
        #expect(d.type == .video && d.version == "1.0")
        #expect(d.title == "A video" && d.authorName == "Ann" && d.providerName == "Tube")
        #expect(d.thumbnailURL == "https://tube.example/t.jpg")
        #expect(d.thumbnailWidth == 480 && d.thumbnailHeight == 360 && d.width == 640 && d.height == nil)
        #expect(d.htmlText() == nil)
    }

    @Test(arguments: [
        (#"{"type":"video","title":42}"#, "title: a number, not a string"),
        (#"{"type":"video","width":"wide"}"#, "width: \"wide\" is not a size in pixels"),
        (#"{"type":"video","width":-3}"#, "width: -3.0 is not a size in pixels"),
        (#"{"type":"video","title":["a"]}"#, "title: a array, not a string or a number"),
        (#"{"title":"no type"}"#, "type: missing"),
        (#"{"type":"movie"}"#, "type: \"movie\" is none of photo, video, link, rich"),
        (#"["type","video"]"#, "the answer is a JSON array, not an object"),
        ("<html>Not found</html>", "the answer is not JSON"),
        ("", "the answer is not JSON"),
    ])
    func aBadJSONAnswerIsRefusedNamingWhatIsWrong(_ text: String, _ why: String) {
        #expect(throws: OEmbedDocument.Problem.self) { try OEmbedDocument.parse(json: Array(text.utf8)) }
        do {
            _ = try OEmbedDocument.parse(json: Array(text.utf8))
        } catch {
            #expect(error.description.hasPrefix(why), "\(error)")
        }
    }

    @Test func theXMLFormIsReadWithoutSubstitutingEntities() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE oembed [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <oembed><type>photo</type><version>1.0</version><title>Dawn &amp; dusk</title>
            <author_name>&secret;</author_name><url>https://img.example/a.jpg</url>
            <width>1024</width><height> 683 </height><provider_name><![CDATA[Flickr]]></provider_name></oembed>
            """
        let d = try OEmbedDocument.parse(Array(xml.utf8), format: .xml)
        #expect(d.type == .photo && d.title == "Dawn & dusk" && d.providerName == "Flickr")
        #expect(d.url == "https://img.example/a.jpg" && d.width == 1024 && d.height == 683)
        #expect(d.authorName == nil || d.authorName?.contains("root") == false)
        #expect(throws: OEmbedDocument.Problem.self) { try OEmbedDocument.parse(xml: Array("<a><type>x".utf8)) }
        #expect(throws: OEmbedDocument.Problem.self) {
            try OEmbedDocument.parse(xml: Array("<html><type>video</type></html>".utf8))
        }
    }

    @Test func htmlIsReadAsTextNeverAsMarkup() {
        var d = OEmbedDocument(type: .rich)
        d.html = """
            <blockquote><p>Parcel <b>delayed</b>,<br>sorry &amp; thanks</p>&mdash; Ann <a href="x">Nov 24</a></blockquote>
            <script>document.write("<p>evil</p>")</script><style>p{}</style>
            """
        #expect(d.htmlText() == "Parcel delayed, sorry & thanks — Ann Nov 24")
        d.html = String(repeating: "<div>word ", count: 5000)
        let long = d.htmlText(limit: 100)
        #expect(long?.count ?? 0 <= 100 && long?.hasSuffix("…") == true)
        d.html = "<iframe src=x></iframe>"
        #expect(d.htmlText() == nil)
    }
}
