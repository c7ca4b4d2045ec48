#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CLibXML2

/// The attributes of one start tag as libxml2's SAX handler passes them (name, value, name, value, …,
/// NULL), read in place: a value becomes a `String` only when the collector keeps it.
struct StartTagAttributes {
    let list: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    /// The longest value kept, in bytes.
    let limit: Int

    /// The raw value of attribute `name` (lowercase, as libxml2 reports names): `.some(nil)` for an
    /// attribute without a value, nil when the tag has none.
    private func raw(_ name: StaticString) -> UnsafePointer<xmlChar>?? {
        guard let list else { return nil }
        let first = name.utf8Start.pointee
        var i = 0
        while let attributeName = list[i] {
            if attributeName.pointee == first, strcmp(cString(attributeName), cString(name.utf8Start)) == 0 {
                return .some(list[i + 1])
            }
            i += 2
        }
        return nil
    }

    /// The value of attribute `name`, cut at ``limit`` bytes; "" for an attribute without a value.
    subscript(name: StaticString) -> String? {
        guard let found = raw(name) else { return nil }
        guard let value = found else { return "" }
        let length = strnlen(cString(value), limit)
        return String(decoding: UnsafeBufferPointer(start: value, count: length), as: UTF8.self)
    }

    /// Whether attribute `name` is `value` exactly.
    func value(of name: StaticString, is value: StaticString) -> Bool {
        guard case .some(.some(let found)) = raw(name) else { return false }
        return strcmp(cString(found), cString(value.utf8Start)) == 0
    }

    /// Whether attribute `name` is a list separated by spaces holding one of `tokens` (`class`); with
    /// `ignoringCase`, ASCII letters match in either case (`rel`; the tokens are given in lowercase). On the
    /// value's bytes in place.
    func tokens(of name: StaticString, include tokens: [StaticString], ignoringCase: Bool = false) -> Bool {
        guard case .some(.some(let value)) = raw(name) else { return false }
        var start = 0
        while true {
            while value[start] == 0x20 { start += 1 }
            if value[start] == 0 { return false }
            var end = start
            while value[end] != 0x20, value[end] != 0 { end += 1 }
            let length = end - start
            for token in tokens where token.utf8CodeUnitCount == length {
                var i = 0
                while i < length {
                    let c = value[start + i]
                    let folded = ignoringCase && c >= 0x41 && c <= 0x5A ? c | 0x20 : c
                    guard folded == token.utf8Start[i] else { break }
                    i += 1
                }
                if i == length { return true }
            }
            start = end
        }
    }

    /// Calls `found` with the index in `table` of each token of attribute `name` that `table` holds (the
    /// whole value when `whole`: an `id`), matched exactly, on the value's bytes in place.
    func tokens(of name: StaticString, whole: Bool, in table: TokenTable, _ found: (Int) -> Void) {
        guard case .some(.some(let value)) = raw(name) else { return }
        var start = 0
        while true {
            if !whole { while value[start] == 0x20 || value[start] == 0x09 || value[start] == 0x0A { start += 1 } }
            if value[start] == 0 { return }
            var end = start
            while value[end] != 0, whole || (value[end] != 0x20 && value[end] != 0x09 && value[end] != 0x0A) {
                end += 1
            }
            if let i = table.index(of: UnsafeBufferPointer(start: value + start, count: end - start)) { found(i) }
            if whole { return }
            start = end
        }
    }

    /// Whether the attributes hide their element: `hidden`, `aria-hidden="true"`, or an inline style with
    /// `display: none` or `visibility: hidden`. One pass over the attributes.
    var hide: Bool {
        guard let list else { return false }
        var i = 0
        while let name = list[i] {
            let value = list[i + 1]
            switch name.pointee {
            case UInt8(ascii: "h"): if xmlStrEqual(name, "hidden") != 0 { return true }
            case UInt8(ascii: "a"):
                if let value, xmlStrEqual(name, "aria-hidden") != 0, xmlStrcasecmp(value, "true") == 0 { return true }
            case UInt8(ascii: "s"):
                guard let value, xmlStrEqual(name, "style") != 0 else { break }
                if Self.declares(value, "display:none") || Self.declares(value, "visibility:hidden") { return true }
            default: break
            }
            i += 2
        }
        return false
    }
}

extension StartTagAttributes {
    /// Whether the NUL-terminated `style` holds `declaration` (lowercase, without spaces), ASCII letters
    /// in either case and spaces and tabs anywhere in it (`Display : NONE`). On the bytes, in place.
    static func declares(_ style: UnsafePointer<UInt8>, _ declaration: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: declaration.utf8Start, count: declaration.utf8CodeUnitCount)
        var start = 0
        while style[start] != 0 {
            var i = start
            var matched = 0
            while matched < pattern.count {
                let c = style[i]
                if c == 0 { return false }  // the rest is shorter than the pattern
                i += 1
                if c == 0x20 || c == 0x09 { continue }
                guard (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) == pattern[matched] else { break }
                matched += 1
            }
            if matched == pattern.count { return true }
            start += 1
        }
        return false
    }
}

/// libxml2's `xmlChar` string as the C library's `char` string.
private func cString(_ p: UnsafePointer<UInt8>) -> UnsafePointer<CChar> {
    UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self)
}

/// Names looked up on an attribute's bytes: most values are rejected by their length alone.
struct TokenTable: Sendable {
    /// The names, as given.
    let names: [String]
    private let bytes: [[UInt8]]
    /// Bit `n` set: some name is `n` bytes long (names of 64 bytes or more are not held).
    private let lengths: UInt64

    init(_ names: [String]) {
        let names = names.filter { $0.utf8.count < 64 }
        self.names = names
        bytes = names.map { Array($0.utf8) }
        lengths = names.reduce(0) { $0 | 1 << UInt64($1.utf8.count) }
    }

    /// The index of the name that is `token`, byte for byte.
    func index(of token: UnsafeBufferPointer<UInt8>) -> Int? {
        guard token.count < 64, lengths & (1 << UInt64(token.count)) != 0 else { return nil }
        return bytes.firstIndex { $0.count == token.count && $0.elementsEqual(token) }
    }
}
