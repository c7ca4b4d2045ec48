import DeskKitJSON

/// JSON-LD as sites write it: wrapped in `<!-- … -->` or `<![CDATA[ … ]]>`, with a BOM or a trailing
/// `;`, several objects in one block, `@graph` arrays; and which of its objects speak for the page.
enum JSONLD {
    /// The values of one `<script type="application/ld+json">` block, in order: wrappers and separators
    /// removed, at most 16. A block that does not parse gives the values before the fault.
    static func values(in block: String) -> [JSONValue] {
        var block = block
        return block.withUTF8 { bytes in
            let unwrapped = unwrap(bytes)
            var values: [JSONValue] = []
            var start = unwrapped.lowerBound
            while start < unwrapped.upperBound, values.count < 16 {
                while start < unwrapped.upperBound, isSeparator(bytes[start]) { start += 1 }
                guard start < unwrapped.upperBound else { break }
                let rest = UnsafeBufferPointer(rebasing: bytes[start..<unwrapped.upperBound])
                switch JSONValue.parseResult(rest) {
                case .success(let value):
                    values.append(value)
                    return values
                case .failure(let error) where error.code == .trailingGarbage && error.offset > 0:
                    // One value, then more: parse the value alone and go on after it.
                    guard
                        case .success(let value) = JSONValue.parseResult(
                            UnsafeBufferPointer(rebasing: rest[..<error.offset]))
                    else { return values }
                    values.append(value)
                    start += error.offset
                case .failure:
                    return values
                }
            }
            return values
        }
    }

    /// The part of the block inside the comment and CDATA wrappers that keep old browsers from showing it,
    /// without a BOM or a trailing `;` (JavaScript habits).
    static func unwrap(_ b: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = 0
        var upper = b.count
        func hasPrefix(_ p: StaticString) -> Bool {
            upper - lower >= p.utf8CodeUnitCount
                && (0..<p.utf8CodeUnitCount).allSatisfy { b[lower + $0] == p.utf8Start[$0] }
        }
        func hasSuffix(_ p: StaticString) -> Bool {
            let n = p.utf8CodeUnitCount
            return upper - lower >= n && (0..<n).allSatisfy { b[upper - n + $0] == p.utf8Start[$0] }
        }
        var changed = true
        while changed {
            changed = false
            while lower < upper, isSpace(b[lower]) || hasPrefix("\u{FEFF}") {
                lower += isSpace(b[lower]) ? 1 : 3
            }
            while lower < upper, isSpace(b[upper - 1]) || b[upper - 1] == UInt8(ascii: ";") { upper -= 1 }
            for prefix: StaticString in ["<!--", "//<![CDATA[", "/*<![CDATA[*/", "<![CDATA["] where hasPrefix(prefix) {
                lower += prefix.utf8CodeUnitCount
                changed = true
            }
            for suffix: StaticString in ["-->", "//]]>", "/*]]>*/", "]]>", "//"] where hasSuffix(suffix) {
                upper -= suffix.utf8CodeUnitCount
                changed = true
            }
        }
        return lower..<upper
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") || isSpace(byte)
    }

    /// The rank of objects that describe the page itself (an article, a product, a web page…): read first.
    static let contentRank = 0
    /// The types that describe the site, its owner or its navigation: their names are not the page's.
    static let siteTypes: Set<String> = ["WebSite"]
    private static let ownerTypes: Set<String> = [
        "Organization", "NewsMediaOrganization", "Corporation", "Person", "Brand", "WebSite", "SiteNavigationElement",
        "WPHeader", "WPFooter", "WPSideBar",
    ]
    private static let ignoredTypes: Set<String> = [
        "BreadcrumbList", "ListItem", "SearchAction", "EntryPoint", "ReadAction",
    ]

    /// ``contentRank`` for the page's own objects, 1 for the site's and its owner's, nil for navigation.
    static func rank(of object: JSONValue) -> Int? {
        if isType(object, in: ignoredTypes) { return nil }
        return isType(object, in: ownerTypes) ? 1 : contentRank
    }

    /// Whether the object's `@type` (a string or an array of them, with or without a schema.org prefix)
    /// is one of `types`.
    static func isType(_ object: JSONValue, in types: Set<String>) -> Bool {
        func named(_ t: String) -> Bool { types.contains(String(t.split(separator: "/").last ?? "")) }
        switch object["@type"] {
        case .string(let t)?: return named(t)
        case .array(let list)?: return list.contains { $0.stringValue.map(named) ?? false }
        default: return false
        }
    }

    /// The object's `@type`s (a string or an array of them), without a schema.org prefix.
    static func typeNames(_ object: JSONValue) -> [String] {
        func name(_ t: String) -> String { String(t.split(separator: "/").last ?? "") }
        switch object["@type"] {
        case .string(let t)?: return [name(t)]
        case .array(let list)?: return list.compactMap { $0.stringValue.map(name) }
        default: return []
        }
    }

    /// An image given as a URL, an `ImageObject` (`url` or `contentUrl`) or an array of either.
    static func image(_ v: JSONValue?) -> String? {
        switch v {
        case .string(let s)?: return s
        case .array(let a)?: return a.lazy.compactMap { image($0) }.first
        case .object?: return v?["url"]?.stringValue ?? v?["contentUrl"]?.stringValue
        default: return nil
        }
    }
}
