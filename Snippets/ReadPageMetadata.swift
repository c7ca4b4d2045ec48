// Reads a page's metadata with libxml2's HTML parser, as its bytes arrive or in one go.
import DeskKitMetadata

// snippet.hide
let bytes = Array(#"<title>Parcel 1138</title><meta property="og:image" content="/map.png">"#.utf8)
let body = [bytes[..<20], bytes[20...]]
// snippet.show
// Streaming: feed() answers true once nothing more is needed.
let parser = HTMLMetadataParser(pageURL: "https://example.com/a", contentType: "text/html; charset=utf-8")
for chunk in body where parser.feed(chunk) { break }
let page = parser.finish()
let card = [page.title, page.description, page.image, page.url, page.siteName]  // the preview's fields
let more = (page.images, page.openGraph, page.twitter, page.icons, page.jsonLD, page.charset)  // all else found

// One shot:
let same = MetadataExtractor.extract(html: bytes, pageURL: "https://example.com/a")
// snippet.hide
print(card, more, same.title ?? "")
