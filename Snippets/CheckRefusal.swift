// Tells a page that stands in for the linked one (a bot check, a wall, an error page…) from the page itself.
import DeskKitMetadata

// snippet.hide
let bytes = Array(#"<title>Just a moment...</title><div id="challenge-stage"></div>"#.utf8)
let url = "https://shop.example/item/7"
let headers = [ResponseFacts.Header(name: "Server", value: "cloudflare")]
// snippet.show
let page = MetadataExtractor.extract(html: bytes, pageURL: url)
let response = ResponseFacts(status: 200, headers: headers, requestedURL: url, finalURL: url)
if let refusal = RefusalCheck.refusal(of: page, response: response) {
    // challenge cloudflare a bot check stood in for the page (element #challenge-stage)
    print(refusal.kind, refusal.provider ?? "-", refusal.detail)
}
