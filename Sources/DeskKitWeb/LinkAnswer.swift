import DeskKitLinks

/// The links of a text as the web module hands them back, made for JavaScript to read without parsing: after
/// the block's byte count, the number of links, then five `Int32` a link — kind (0 a URL, 1 an e-mail address),
/// start and end in UTF-16 code units, and the UTF-16 lengths of `href` and `asciiHref` — then every `href` and
/// `asciiHref` given, in order, as one UTF-8 text that JavaScript decodes once and slices.
///
/// Most links cross as their offsets alone: a negative `href` length `-1 - p` says the href is prefix `p`
/// (``RawLink/Prefix``'s raw value) and then the text as written, and that `asciiHref` is the same (the text is
/// ASCII); an `asciiHref` length of -1 says it is `href`.
enum LinkAnswer {
    /// The detector's options from the bits JavaScript sends, in the order of `LINK_OPTIONS` in `Web/index.mjs`.
    static func options(_ bits: UInt32) -> LinkDetector.Options {
        func on(_ bit: Int) -> Bool { bits & (1 << UInt32(bit)) != 0 }
        return LinkDetector.Options(
            bareDomains: on(0), emails: on(1), ipHosts: on(2), anyScheme: on(3), strictHosts: on(4),
            protocolRelative: on(5), pipesInPaths: on(6), localhost: on(7), anyEmailDomain: on(8),
            requireScheme: on(9))
    }

    /// The answer block for the links `detector` finds in `text` (UTF-8 from JavaScript's `TextEncoder`, so
    /// well-formed), written into the module's one answer buffer (``WebAnswer/scratch``): finding links is the
    /// call made for every message shown, so its answer is not an allocation of its own.
    static func block(_ detector: LinkDetector, _ text: UnsafeBufferPointer<UInt8>) -> UnsafeMutableRawPointer {
        WebAnswer.scratch.write { out in
            out.appendWord(0)  // the count, written at the end
            var count: Int32 = 0
            var hrefs: [(String, String?)] = []
            detector.forEachLink(utf8: text, wellFormed: true) { raw, _, utf16 in
                count += 1
                out.appendWord(raw.kind == .email ? 1 : 0)
                out.appendWord(Int32(utf16.lowerBound))
                out.appendWord(Int32(utf16.upperBound))
                // As many UTF-16 units as bytes: ASCII.
                if utf16.count == raw.range.count, raw.hrefIsPrefixedText(text) {
                    out.appendWord(-1 - raw.prefix.rawValue)
                    out.appendWord(-1)
                    return
                }
                let (href, ascii) = raw.hrefs(text)
                let asciiDiffers = ascii != href
                out.appendWord(Int32(href.utf16.count))
                out.appendWord(asciiDiffers ? Int32(ascii.utf16.count) : -1)
                hrefs.append((href, asciiDiffers ? ascii : nil))
            }
            out.setWord(count, at: 0)
            for (href, ascii) in hrefs {
                out.append(href)
                if let ascii { out.append(ascii) }
            }
        }
    }
}
