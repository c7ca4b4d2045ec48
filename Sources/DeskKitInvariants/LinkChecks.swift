import DeskKitLinks

enum LinkChecks {
    static let detectors = [
        LinkDetector(),
        LinkDetector(options: .init(bareDomains: false, emails: false)),
        LinkDetector(options: .init(ipHosts: true, anyScheme: true, strictHosts: true)),
        LinkDetector(options: .init(protocolRelative: false, pipesInPaths: true, localhost: true)),
    ]

    /// Links are in order, do not overlap, lie inside the text and name exactly the text they cover, in
    /// all three units; hrefs carry a scheme and the ASCII href is ASCII. Text and bytes agree.
    static func links(_ bytes: UnsafeBufferPointer<UInt8>) throws(InvariantViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        let scalars = Array(text.unicodeScalars)
        let utf16 = Array(text.utf16)
        let valid = String(validating: bytes, as: UTF8.self) != nil
        for detector in detectors {
            let links = detector.links(utf8: bytes)
            var end = 0
            for link in links {
                try require(
                    link.utf8Range.lowerBound >= end, "links overlap or are out of order at byte \(link.utf8Range)")
                try require(
                    !link.utf8Range.isEmpty && link.utf8Range.upperBound <= bytes.count,
                    "range \(link.utf8Range) outside the text")
                end = link.utf8Range.upperBound
                let covered = String(decoding: UnsafeBufferPointer(rebasing: bytes[link.utf8Range]), as: UTF8.self)
                try require(covered == link.text, "the link text \(excerpt(link.text)) is not the text it covers")
                if valid {
                    try require(link.range.upperBound <= scalars.count, "scalar range \(link.range) outside the text")
                    try require(
                        String(String.UnicodeScalarView(scalars[link.range])) == link.text,
                        "the scalar range \(link.range) does not cover \(excerpt(link.text))")
                    try require(link.utf16Range.upperBound <= utf16.count, "UTF-16 range outside the text")
                    try require(
                        String(decoding: utf16[link.utf16Range], as: UTF16.self) == link.text,
                        "the UTF-16 range \(link.utf16Range) does not cover \(excerpt(link.text))")
                }
                try require(link.href.contains(":"), "an href without a scheme: \(excerpt(link.href))")
                try require(
                    link.asciiHref.utf8.allSatisfy { $0 < 0x80 }, "a non-ASCII asciiHref: \(excerpt(link.asciiHref))")
            }
            if valid {
                try require(detector.links(in: text) == links, "links(in:) and links(utf8:) differ")
            }
        }
    }
}
