import DeskKitLinks

/// The links of a text as the web module hands them back, made for JavaScript to read without parsing: a
/// count, then seven `Int32` a link — kind (0 a URL, 1 an e-mail address), start and end in UTF-16 code units,
/// and the UTF-16 lengths of `href` and `asciiHref` (-1: the same as `href`) — then every `href` and differing
/// `asciiHref`, in order, as one UTF-8 text that JavaScript decodes once and slices.
enum LinkAnswer {
    /// The detector's options from the bits JavaScript sends (``optionBits``' order).
    static func options(_ bits: UInt32) -> LinkDetector.Options {
        func on(_ bit: Int) -> Bool { bits & (1 << UInt32(bit)) != 0 }
        return LinkDetector.Options(
            bareDomains: on(0), emails: on(1), ipHosts: on(2), anyScheme: on(3), strictHosts: on(4),
            protocolRelative: on(5), pipesInPaths: on(6), localhost: on(7), anyEmailDomain: on(8),
            requireScheme: on(9))
    }

    /// The option names in bit order, as the JavaScript API spells them.
    static let optionBits = [
        "bareDomains", "emails", "ipHosts", "anyScheme", "strictHosts", "protocolRelative", "pipesInPaths",
        "localhost", "anyEmailDomain", "requireScheme",
    ]

    /// The answer block for `links`.
    static func block(_ links: [Link]) -> UnsafeMutableRawPointer {
        var words: [Int32] = [Int32(links.count)]
        words.reserveCapacity(1 + links.count * 5)
        var text: [UInt8] = []
        for link in links {
            let href = link.href
            let ascii = link.asciiHref
            words.append(link.kind == .email ? 1 : 0)
            words.append(Int32(link.utf16Range.lowerBound))
            words.append(Int32(link.utf16Range.upperBound))
            words.append(Int32(href.utf16.count))
            text.append(contentsOf: href.utf8)
            if ascii == href {
                words.append(-1)
            } else {
                words.append(Int32(ascii.utf16.count))
                text.append(contentsOf: ascii.utf8)
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(words.count * 4 + text.count)
        for word in words {
            let w = UInt32(bitPattern: word)
            bytes.append(UInt8(truncatingIfNeeded: w))
            bytes.append(UInt8(truncatingIfNeeded: w >> 8))
            bytes.append(UInt8(truncatingIfNeeded: w >> 16))
            bytes.append(UInt8(truncatingIfNeeded: w >> 24))
        }
        bytes.append(contentsOf: text)
        return bytes.withUnsafeBufferPointer { WebAnswer.block($0) }
    }
}
