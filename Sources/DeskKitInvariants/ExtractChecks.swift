import DeskKitFetchPolicy
import DeskKitMetadata
import DeskKitModel

enum ExtractChecks {
    static let pageURLs: [String?] = ["https://example.com/a/b?c=d", "http://xn--bcher-kva.example/", nil]
    static let contentTypes: [String?] = [
        nil, "text/html; charset=utf-8", "text/html; charset=shift_jis", "text/html; charset=windows-1251",
        "text/html;charset=bogus",
    ]

    /// The first two bytes choose the page URL, the Content-Type and the seed of the chunk splits; the
    /// rest is the page. Extraction in random chunks equals one-shot extraction; every URL kept is
    /// http(s) (without a page URL, relative URLs stay relative, but any with a scheme is http(s)) and
    /// every value within its cap.
    static func extract(_ bytes: UnsafeBufferPointer<UInt8>) throws(InvariantViolation) {
        guard bytes.count >= 2 else { return }
        let page = UnsafeBufferPointer(rebasing: bytes[2...])
        let pageURL = pageURLs[Int(bytes[0]) % pageURLs.count]
        let contentType = contentTypes[Int(bytes[0] >> 4) % contentTypes.count]
        let limits = ExtractionLimits.default
        let oneShot = MetadataExtractor.extract(html: page, pageURL: pageURL, contentType: contentType)

        var random = SplitMix64(seed: UInt64(bytes[1]))
        let parser = HTMLMetadataParser(pageURL: pageURL, contentType: contentType)
        var offset = 0
        while offset < page.count {
            let size = Int(random.next() % 64) == 0 ? Int(random.next() % 4096) : Int(random.next() % 300)
            let end = min(page.count, offset + max(1, size))
            if parser.feed(UnsafeBufferPointer(rebasing: page[offset..<end])) { break }
            offset = end
        }
        var chunked = parser.finish()
        chunked.bytesParsed = oneShot.bytesParsed
        chunked.stoppedEarly = oneShot.stoppedEarly
        try require(chunked == oneShot, "chunked extraction differs from one-shot: \(diff(chunked, oneShot))")

        for url in [oneShot.image, oneShot.url, oneShot.canonicalURL]
            + oneShot.images.flatMap({ [$0.url, $0.secureURL] })
        {
            guard let url else { continue }
            let lower = url.lowercased()
            // By bytes: `https://` followed by a combining mark does not have the prefix `https://` as Characters.
            let web = lower.utf8.starts(with: "http://".utf8) || lower.utf8.starts(with: "https://".utf8)
            try require(web || (pageURL == nil && !hasScheme(lower)), "a kept URL that is not http(s): \(excerpt(url))")
            try require(url.count <= limits.maxURLLength, "a URL over \(limits.maxURLLength) characters")
        }
        try require((oneShot.title?.count ?? 0) <= limits.maxTitleLength, "a title over the cap")
        try require((oneShot.description?.count ?? 0) <= limits.maxDescriptionLength, "a description over the cap")
        try require((oneShot.siteName?.count ?? 0) <= limits.maxSiteNameLength, "a site name over the cap")
        try require(oneShot.images.count <= limits.maxImages, "more images than the cap")
        let kept = oneShot.openGraph.count + oneShot.twitter.count + oneShot.itemprops.count
        try require(kept <= limits.maxMetaTags, "more meta tags kept than the cap")
        let s = oneShot.signals
        for list in [s.scriptSources, s.frameSources, s.formActions, s.markers] {
            try require(list.count <= PageSignals.maxSources, "more signals kept than the cap")
        }
        // Bytes of the page, each at most one scalar of the strings made of them.
        try require(s.textStart.unicodeScalars.count <= PageSignals.maxTextStart, "more text start than the cap")
        try require(s.scriptText.unicodeScalars.count <= PageSignals.maxScriptText, "more script text than the cap")
        // The refusal check reads any page, and what it answers is one of the six refusals.
        let response = ResponseFacts(
            status: Int(bytes[0]) % 2 == 0 ? 200 : 403, requestedURL: pageURL, finalURL: pageURL)
        if let refusal = RefusalCheck.refusal(of: oneShot, response: response) {
            try require(refusal.kind.isRefusal, "a refusal of kind \(refusal.kind)")
            try require(!refusal.detail.isEmpty, "a refusal without a detail")
        }
    }

    /// Whether a URL starts with a scheme as RFC 3986 writes one: a letter, then letters, digits, `+`, `-`
    /// or `.`, then `:` (`meta.name=x:y` is a relative path). By code points, as the extractor splits URLs:
    /// `:` followed by a combining mark is still a `:`.
    static func hasScheme(_ url: String) -> Bool {
        let s = url.unicodeScalars
        guard let colon = s.firstIndex(of: ":"), let first = s.first, first.isASCII, first.properties.isAlphabetic
        else { return false }
        return s[..<colon].allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    static func diff(_ a: PageMetadata, _ b: PageMetadata) -> String {
        let fields: [(String, String, String)] = [
            ("title", "\(a.title as Any)", "\(b.title as Any)"),
            ("description", "\(a.description as Any)", "\(b.description as Any)"),
            ("image", "\(a.image as Any)", "\(b.image as Any)"), ("url", "\(a.url as Any)", "\(b.url as Any)"),
            ("charset", "\(a.charset)", "\(b.charset)"), ("openGraph", "\(a.openGraph)", "\(b.openGraph)"),
            ("signals", "\(a.signals)", "\(b.signals)"),
        ]
        return fields.filter { $0.1 != $0.2 }.map { "\($0.0): \(excerpt($0.1)) vs \(excerpt($0.2))" }.joined(
            separator: "; ")
    }
}
