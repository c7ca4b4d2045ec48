import DeskKitLinks

/// The links of a text as the web module hands them back, made for JavaScript to read without parsing: after
/// the block's byte count, the number of links, then five `Int32` a link — kind (0 a URL, 1 an e-mail address),
/// start and end in UTF-16 code units, and the UTF-16 lengths of `href` and `asciiHref` (-1: the same as
/// `href`) — then every `href` and differing `asciiHref`, in order, as one UTF-8 text that JavaScript decodes
/// once and slices.
enum LinkAnswer {
    /// The detector's options from the bits JavaScript sends, in the order of `LINK_OPTIONS` in `Web/index.mjs`.
    static func options(_ bits: UInt32) -> LinkDetector.Options {
        func on(_ bit: Int) -> Bool { bits & (1 << UInt32(bit)) != 0 }
        return LinkDetector.Options(
            bareDomains: on(0), emails: on(1), ipHosts: on(2), anyScheme: on(3), strictHosts: on(4),
            protocolRelative: on(5), pipesInPaths: on(6), localhost: on(7), anyEmailDomain: on(8),
            requireScheme: on(9))
    }

    /// The answer block for `links`, written into the module's one answer buffer (``WebAnswer/scratch``):
    /// finding links is the call made for every message shown, so its answer is not an allocation of its own.
    static func block(_ links: [Link]) -> UnsafeMutableRawPointer {
        WebAnswer.scratch.write { out in
            out.appendWord(Int32(links.count))
            var hrefs: [(String, String?)] = []
            hrefs.reserveCapacity(links.count)
            for link in links {
                let (href, ascii) = link.hrefs
                out.appendWord(link.kind == .email ? 1 : 0)
                out.appendWord(Int32(link.utf16Range.lowerBound))
                out.appendWord(Int32(link.utf16Range.upperBound))
                out.appendWord(Int32(href.utf16.count))
                out.appendWord(ascii == href ? -1 : Int32(ascii.utf16.count))
                hrefs.append((href, ascii == href ? nil : ascii))
            }
            for (href, ascii) in hrefs {
                out.append(href)
                if let ascii { out.append(ascii) }
            }
        }
    }
}
