/// One-shot extraction from a whole page.
public enum MetadataExtractor {
    /// Extracts the metadata of `html`, the bytes of the page at `pageURL` served with `contentType`.
    public static func extract(
        html: some Collection<UInt8>, pageURL: String?, contentType: String? = nil, limits: ExtractionLimits = .default
    ) -> PageMetadata {
        let parser = HTMLMetadataParser(pageURL: pageURL, contentType: contentType, limits: limits)
        parser.feed(html)
        return parser.finish()
    }
}
