import DeskKitJSON
import DeskKitURL

extension RawLink {
    /// Whether ``hrefs(_:)``'s `href` is the prefix and then the text as written: no capital letter in the
    /// scheme or the host, which the href lowercases (most links; the web module then sends no string).
    package func hrefIsPrefixedText(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        func hasCapital(_ r: Range<Int>) -> Bool { r.contains { b[$0] >= 0x41 && b[$0] <= 0x5A } }
        if let scheme, hasCapital(scheme) { return false }
        return !hasCapital(host)
    }

    /// The link as written in `b`.
    func text(_ b: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
    }

    /// ``Link/href`` and ``Link/asciiHref``: the scheme (or the prefix to add), the host lowercased
    /// (and in punycode for the ASCII form, where every other non-ASCII character is percent-encoded as
    /// UTF-8), the rest as written.
    package func hrefs(_ b: UnsafeBufferPointer<UInt8>) -> (String, String) {
        var out: [UInt8] = []
        out.reserveCapacity(range.count + 8)
        switch prefix {
        case .none: break
        case .http: out.append(contentsOf: "http://".utf8)
        case .https: out.append(contentsOf: "https://".utf8)
        case .httpsColon: out.append(contentsOf: "https:".utf8)
        case .mailto: out.append(contentsOf: "mailto:".utf8)
        }
        func appendLowercased(_ r: Range<Int>) {
            for i in r { out.append(b[i] >= 0x41 && b[i] <= 0x5A ? b[i] | 0x20 : b[i]) }
        }
        var cursor = range.lowerBound
        if let scheme {
            appendLowercased(scheme)
            cursor = scheme.upperBound
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[cursor..<host.lowerBound]))
        let hostStart = out.count
        appendLowercased(host)
        let hostEnd = out.count
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[host.upperBound..<range.upperBound]))
        let href = String(decoding: out, as: UTF8.self)
        guard out.contains(where: { $0 >= 0x80 }) else { return (href, href) }
        var ascii: [UInt8] = []
        ascii.reserveCapacity(out.count + 16)
        let nonASCII = { (byte: UInt8) in byte >= 0x80 }
        out.withUnsafeBufferPointer { out in
            PercentEncoding.append(UnsafeBufferPointer(rebasing: out[..<hostStart]), to: &ascii, encoding: nonASCII)
            let hostText = String(decoding: out[hostStart..<hostEnd], as: UTF8.self)
            ascii += Punycode.asciiHost(hostText).utf8  // an ASCII host as it is
            PercentEncoding.append(UnsafeBufferPointer(rebasing: out[hostEnd...]), to: &ascii, encoding: nonASCII)
        }
        return (href, String(decoding: ascii, as: UTF8.self))
    }
}
