#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import DeskKitJSON

enum CharsetSniffer {
    /// How much of the page is looked at for a `<meta>` declaration (the whole head up to this size).
    static let prescanLimit = 64 * 1024

    /// The bytes the decision looks at: up to the end of the head (the first `</head` or `<body`), at most
    /// ``prescanLimit``. The same bytes however the page arrives, so streaming decides as a whole page does.
    static func window(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let limit = min(bytes.count, prescanLimit)
        let scope = UnsafeBufferPointer(rebasing: bytes[0..<limit])
        return headEnd(in: scope, from: 0).map { min(limit, $0 + headEndLength) } ?? limit
    }

    /// How many bytes from the start of `</head` or `<body` the window takes in.
    static let headEndLength = 6

    /// Whether `bytes`, the start of a page, hold the whole of ``window(_:)`` — which more bytes would not
    /// change — looking for the end of the head from `from` on.
    static func holdsWindow(_ bytes: UnsafeBufferPointer<UInt8>, searchingFrom from: Int) -> Bool {
        bytes.count >= prescanLimit || headEnd(in: bytes, from: from).map { $0 + headEndLength <= bytes.count } ?? false
    }

    /// Where the first `</head` or `<body` (any case) starts at or after `from`.
    static func headEnd(in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        while let lt = find(UInt8(ascii: "<"), in: b, from: i) {
            if startsWith(b, at: lt, "</head") || startsWith(b, at: lt, "<body") { return lt }
            i = lt + 1
        }
        return nil
    }

    /// The first `byte` at or after `from` (memchr: many bytes at a time).
    static func find(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = b.baseAddress, from < b.count, let hit = memchr(base + from, Int32(byte), b.count - from)
        else {
            return nil
        }
        return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }

    /// Decides the encoding: BOM > HTTP charset > `<meta>` > UTF-8 when the bytes are UTF-8 > what
    /// uchardet detects > windows-1252. A declaration the bytes contradict is passed over for the next: a
    /// UTF-8 one by bytes that are mostly not UTF-8, a multi-byte one (Shift_JIS, GBK, Big5…) by bytes
    /// that are mostly invalid in it, or that another multi-byte encoding the detector names reads without
    /// an error; a single-byte one by bytes that are valid UTF-8 with multi-byte characters.
    static func decide(_ bytes: UnsafeBufferPointer<UInt8>, contentType: String?) -> CharsetDecision {
        guard bytes.count > 0 else { return CharsetDecision(name: "UTF-8", source: .detectedUTF8) }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return CharsetDecision(name: "UTF-8", source: .byteOrderMark)
        }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE {
            return CharsetDecision(name: "UTF-16LE", source: .byteOrderMark)
        }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            return CharsetDecision(name: "UTF-16BE", source: .byteOrderMark)
        }
        let sample = UnsafeBufferPointer(rebasing: bytes[0..<window(bytes)])
        var declarations: [(name: String, source: CharsetDecision.Source)] = []
        if let label = contentType.flatMap(charsetParameter), let name = declaredName(label) {
            declarations.append((name, .httpHeader))
        }
        if let encoding = metaCharset(sample) { declarations.append((encoding.name, .meta)) }
        let utf8 = UTF8Evidence(sample)
        var overruled: String?
        for (name, source) in declarations {
            if name == "UTF-8" {
                if !utf8.contradictsUTF8 { return CharsetDecision(name: name, source: source, declared: overruled) }
            } else if utf8.isUTF8, utf8.multibyte > 0 {
                return CharsetDecision(name: "UTF-8", source: .utf8OverDeclaration, declared: name)
            } else {
                switch CharsetDetection.fit(sample, as: name) {
                case .clean: return CharsetDecision(name: name, source: source, declared: overruled)
                case .strays:
                    // A page labelled with one CJK encoding and written in another (GBK declared as
                    // Shift_JIS) also reads with a few errors: when the detector names a multi-byte
                    // encoding that reads the bytes cleanly, it is that one; else the errors are stray bytes.
                    if let detected = CharsetDetection.detect(sample), detected != name,
                        CharsetDetection.isMultiByte(detected), CharsetDetection.fit(sample, as: detected) == .clean
                    {
                        return CharsetDecision(name: detected, source: .detected, declared: name)
                    }
                    return CharsetDecision(name: name, source: source, declared: overruled)
                case .contradicted: break
                }
            }
            overruled = overruled ?? name
        }
        if !utf8.contradictsUTF8 { return CharsetDecision(name: "UTF-8", source: .detectedUTF8, declared: overruled) }
        if let name = CharsetDetection.detect(sample), name != "UTF-8", CharsetDetection.decodes(sample, as: name) {
            return CharsetDecision(name: name, source: .detected, declared: overruled)
        }
        return CharsetDecision(name: "WINDOWS-1252", source: .fallback, declared: overruled)
    }

    /// How far bytes are UTF-8: their valid multi-byte sequences and their invalid ones.
    struct UTF8Evidence {
        var multibyte = 0
        var invalid = 0

        /// Valid UTF-8 (ASCII alone counts).
        var isUTF8: Bool { invalid == 0 }
        /// Invalid sequences that are not strays among valid characters: a title cut inside a character by a
        /// CMS leaves one among many; text in a legacy encoding is mostly invalid (GBK, whose pairs are
        /// the most often valid by accident, about nine in ten).
        var contradictsUTF8: Bool { invalid > 0 && invalid * 2 > multibyte }

        init(_ b: UnsafeBufferPointer<UInt8>) {
            var i = 0
            guard let base = b.baseAddress.map(UnsafeRawPointer.init) else { return }
            while i < b.count {
                // ASCII eight bytes at a time.
                while i + 8 <= b.count,
                    base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    i += 8
                }
                guard i < b.count else { break }
                if b[i] < 0x80 {
                    i += 1
                    continue
                }
                let n = UTF8Validation.sequenceLength(b, at: i)
                if n == 0 {
                    // A sequence cut by the end of the sample (a chunk boundary) is not evidence against UTF-8.
                    let cut =
                        b.count - i < 4 && b[i] >= 0xC2 && b[i] <= 0xF4
                        && b[(i + 1)...].allSatisfy { $0 & 0xC0 == 0x80 }
                    if cut { break }
                    invalid += 1
                    i += 1
                } else {
                    multibyte += 1
                    i += n
                }
            }
        }
    }

    /// `charset=` of a Content-Type value.
    static func charsetParameter(_ contentType: String) -> String? {
        for part in contentType.split(separator: ";").dropFirst() {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, kv[0].trimmingCharacters(in: " \t").lowercased() == "charset" else { continue }
            let value = kv[1].trimmingCharacters(in: " \t\"'")
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The name of the encoding a declaration's label names (``WebEncoding``): the standard's labels only,
    /// and a UTF-16 label read as UTF-8 (a page with no byte order mark that reached here is no UTF-16).
    static func declaredName(_ label: String) -> String? { WebEncoding.labelled(label)?.withoutByteOrderMark.name }

    /// The HTML standard's prescan for a `<meta>` declaring the encoding, up to the end of the head (past
    /// the standard's first 1024 bytes: real pages declare later): comments, other tags with their
    /// attributes, and `<!…>`, `</…>`, `<?…>` are stepped over as the standard does, so a `<meta` inside
    /// an attribute value or a comment declares nothing. Each `<meta>` is judged by ``MetaCharset``.
    static func metaCharset(_ b: UnsafeBufferPointer<UInt8>) -> WebEncoding? {
        var i = 0
        func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
        while let lt = find(UInt8(ascii: "<"), in: b, from: i) {
            i = lt + 1
            if startsWith(b, at: lt, "<!--") {
                // `<!-->` closes itself: the `-->` may share the opening's dashes.
                i = findSequence(Array("-->".utf8), in: b, from: lt + 2).map { $0 + 3 } ?? b.count
            } else if startsWith(b, at: lt, "</head") || startsWith(b, at: lt, "<body") {
                return nil
            } else if startsWith(b, at: lt, "<meta"), lt + 5 < b.count, isSpace(b[lt + 5]) || b[lt + 5] == 0x2F {
                var attributes = PrescanAttributes(b, from: lt + 5)
                var seen: [String: String] = [:]
                while let (name, value) = attributes.next() {
                    if seen[name] == nil { seen[name] = value }  // the first of a name counts
                }
                i = attributes.position
                if let encoding = MetaCharset.declared(
                    charset: seen["charset"], httpEquiv: seen["http-equiv"], content: seen["content"])
                {
                    return encoding
                }
            } else if lt + 1 < b.count,
                isLetter(b[lt + 1]) || (b[lt + 1] == 0x2F && lt + 2 < b.count && isLetter(b[lt + 2]))
            {
                // Another tag: its name, then its attributes, read only to find where it ends.
                var j = lt + 1
                while j < b.count, !isSpace(b[j]), b[j] != UInt8(ascii: ">") { j += 1 }
                var attributes = PrescanAttributes(b, from: j)
                attributes.skipToEnd()
                i = attributes.position
            } else if lt + 1 < b.count,
                b[lt + 1] == UInt8(ascii: "!") || b[lt + 1] == 0x2F || b[lt + 1] == UInt8(ascii: "?")
            {
                i = find(UInt8(ascii: ">"), in: b, from: lt + 1).map { $0 + 1 } ?? b.count
            }
        }
        return nil
    }

    /// Where `s` (lowercase ASCII, not starting with a letter) first occurs at or after `from`, in any case.
    static func findSequence(_ s: [UInt8], in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        while let first = find(s[0], in: b, from: i) {
            if startsWith(b, at: first, s) { return first }
            i = first + 1
        }
        return nil
    }

    /// Case-insensitive prefix test at `i` (the pattern is lowercase ASCII).
    static func startsWith(_ b: UnsafeBufferPointer<UInt8>, at i: Int, _ pattern: some Collection<UInt8>) -> Bool {
        guard i + pattern.count <= b.count else { return false }
        var j = i
        for p in pattern {
            let c = b[j]
            if (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) != p { return false }
            j += 1
        }
        return true
    }

    static func startsWith(_ b: UnsafeBufferPointer<UInt8>, at i: Int, _ pattern: StaticString) -> Bool {
        startsWith(b, at: i, UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount))
    }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C
    }
}
