// Finds the links in chat text: URLs, bare domains with a known TLD, e-mail addresses.
import DeskKitLinks

for link in LinkDetector().links(in: "Tracking: example.com/track/1138 — or mail help@example.com") {
    print(link.text)  // "example.com/track/1138", exactly as written
    print(link.href)  // "https://example.com/track/1138" (mailto: for e-mail, https:// for bare domains)
    print(link.asciiHref)  // the same in ASCII: IDN hosts in punycode, other non-ASCII percent-encoded
    print(link.kind)  // .url or .email
    print(link.range, link.utf16Range, link.utf8Range)  // in Unicode scalars, UTF-16 (Apple, JS), UTF-8
}
