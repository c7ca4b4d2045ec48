/// Leaves the text of `<script>` and `<style>` elements out of what libxml2 reads.
///
/// No preview field comes from a script or a style sheet (JSON-LD scripts, which do, are kept), yet pages
/// carry hundreds of KiB of them, often in the head, before the metadata: libxml2 2.9 reads that text a
/// character at a time (~100 MB/s), while this skips it with `memchr` for its `</script`. libxml2 still
/// sees every element: `<script src=…>` and its `</script>` reach it, only the text between them does not.
///
/// It follows libxml2 2.9's HTML tokenizer where that decides what is script text: comments (`<!--` to
/// `-->` or `--!>`), quoted attribute values, `<script/>` (an empty element, no text), and the end of the
/// text at `</script` or `</style` in any case. Where it cannot be sure a script starts, it keeps the bytes:
/// libxml2 then reads them as before. A state machine over bytes, so any cutting of the page into chunks
/// keeps the same bytes. Only for encodings where `<` is always the byte 0x3C (not UTF-16, not ISO-2022).
struct RawTextSkipper {
    private enum State {
        /// Text and character references: up to the next `<`.
        case data
        /// Just after `<`.
        case lessThan
        /// After `<!` and after `<!-`.
        case bang, bangDash
        /// Inside `<!-- … -->`.
        case comment
        /// `<!DOCTYPE …>` and other `<!…>`: to the next `>` outside quotes.
        case markup
        /// End tags and `<?…>`: to the next `>`.
        case toGreater
        /// The name of a start tag.
        case tagName
        /// The attributes of a start tag, to its `>`.
        case attributes
        /// The text of a script or style element: skipped up to its end tag.
        case rawText
    }

    private var state = State.data
    /// The quote that opened the attribute value being read, 0 outside values.
    private var quote: UInt8 = 0
    /// The first 8 bytes of the start tag's name, lowercase, and its length.
    private var name: UInt64 = 0
    private var nameLength = 0
    /// The last byte of the start tag before its `>` was `/`.
    private var slash = false
    /// How much of `ld+json` the start tag has matched, and whether it has it all.
    private var jsonMatched = 0
    private var isJSON = false
    /// In a comment: `-` seen in a row (2 at most), or 3 after `--!`.
    private var dashes = 0
    /// The script or style whose start tag is being read, or whose text is being skipped.
    private var element: RawElement?
    /// How much of the element's end tag (`</script`) the skipped text has matched.
    private var endMatched = 0
    /// No text of the script being skipped has been given yet.
    private var scriptStarts = false

    private enum RawElement {
        case script, style

        /// The start of the end tag that ends the text, as libxml2 2.9 looks for it (any case).
        var endTag: StaticString {
            switch self {
            case .script: "</script"
            case .style: "</style"
            }
        }

        /// The element named `name` (its first 8 bytes as a big-endian integer) of `length` bytes.
        init?(name: UInt64, length: Int) {
            switch (name, length) {
            case (0x73_63_72_69_70_74, 6): self = .script
            case (0x73_74_79_6C_65, 5): self = .style
            default: return nil
            }
        }
    }

    /// What marks a JSON-LD script, wherever it is in the start tag (as `type="application/ld+json"`).
    private static var json: StaticString { "ld+json" }

    /// Scans the next bytes of the page and calls `keep` with each run libxml2 should read, in order, the
    /// index in `bytes` after the page bytes that run stands for, and whether text is skipped after it (the
    /// run ends with a script's start tag). A skipped script's end tag is given as `</script` (lowercase):
    /// its first bytes may have been in an earlier chunk. `script` gets the text of the scripts skipped, in
    /// runs, whether a run is the first of its script, and the index in `bytes` after it (what tells a
    /// challenge page, `PageSignals`).
    mutating func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, keep: (UnsafeBufferPointer<UInt8>, Int, Bool) -> Void,
        script: (UnsafeBufferPointer<UInt8>, Bool, Int) -> Void
    ) {
        var i = 0
        var keptFrom: Int? = state == .rawText ? nil : 0
        while i < bytes.count {
            let c = bytes[i]
            switch state {
            case .data:
                guard let lt = CharsetSniffer.find(UInt8(ascii: "<"), in: bytes, from: i) else {
                    i = bytes.count
                    continue
                }
                i = lt + 1
                state = .lessThan
            case .lessThan:
                switch c {
                case UInt8(ascii: "!"): state = .bang
                case UInt8(ascii: "/"), UInt8(ascii: "?"): state = .toGreater
                default:
                    // Not a tag: text, and `c` is looked at again (it may be `<`).
                    if Self.isNameStart(c) {
                        state = .tagName
                        (name, nameLength, slash, jsonMatched, isJSON) = (0, 0, false, 0, false)
                    } else {
                        state = .data
                    }
                    continue
                }
                i += 1
            case .bang, .bangDash:
                if c == UInt8(ascii: "-") {
                    i += 1
                    if state == .bangDash { (state, dashes) = (.comment, 0) } else { state = .bangDash }
                } else {
                    (state, quote) = (.markup, 0)
                }
            case .comment:
                i += 1
                switch c {
                case UInt8(ascii: "-"): dashes = dashes >= 2 ? (dashes == 3 ? 1 : 2) : dashes + 1
                case UInt8(ascii: "!"): dashes = dashes == 2 ? 3 : 0
                case UInt8(ascii: ">"):
                    if dashes >= 2 { state = .data }
                    dashes = 0
                default: dashes = 0
                }
            case .markup:
                i += 1
                if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    quote = c
                } else if c == UInt8(ascii: ">") {
                    state = .data
                }
            case .toGreater:
                if let gt = CharsetSniffer.find(UInt8(ascii: ">"), in: bytes, from: i) {
                    i = gt + 1
                    state = .data
                } else {
                    i = bytes.count
                }
            case .tagName:
                while i < bytes.count, Self.isNameChar(bytes[i]) {
                    if nameLength < 8 { name = name << 8 | UInt64(Self.lower(bytes[i])) }
                    nameLength += 1
                    i += 1
                }
                if i < bytes.count {
                    (state, quote, element) = (.attributes, 0, RawElement(name: name, length: nameLength))
                }
            case .attributes:
                // To the next quote or `>` in a tight loop: few tags are scripts.
                let from = i
                if quote != 0 {
                    if let q = CharsetSniffer.find(quote, in: bytes, from: i) {
                        (i, quote, slash) = (q + 1, 0, false)
                    } else {
                        i = bytes.count
                    }
                } else {
                    while i < bytes.count, !Self.endsUnquotedRun(bytes[i]) { i += 1 }
                    if i > from { slash = bytes[i - 1] == UInt8(ascii: "/") }
                    if i < bytes.count {
                        let c = bytes[i]
                        i += 1
                        if c == UInt8(ascii: ">") { state = .data } else { (quote, slash) = (c, false) }
                    }
                }
                guard let raw = element else { continue }
                if raw == .script { matchJSON(bytes, from..<i) }
                if state == .data, !slash, !isJSON {
                    if let kept = keptFrom { keep(UnsafeBufferPointer(rebasing: bytes[kept..<i]), i, true) }
                    (keptFrom, state, endMatched, scriptStarts) = (nil, .rawText, 0, raw == .script)
                }
            case .rawText:
                let endTag = element!.endTag
                if endMatched == 0 {
                    let lt = CharsetSniffer.find(UInt8(ascii: "<"), in: bytes, from: i)
                    if element == .script {
                        scriptText(UnsafeBufferPointer(rebasing: bytes[i..<(lt ?? bytes.count)]), at: lt ?? bytes.count)
                    }
                    guard let lt else {
                        i = bytes.count
                        continue
                    }
                    i = lt + 1
                    endMatched = 1
                } else if Self.lower(c) == endTag.utf8Start[endMatched] {
                    i += 1
                    endMatched += 1
                    if endMatched == endTag.utf8CodeUnitCount {
                        keep(UnsafeBufferPointer(start: endTag.utf8Start, count: endTag.utf8CodeUnitCount), i, false)
                        (keptFrom, state, element) = (i, .toGreater, nil)
                    }
                } else {
                    // Not the end tag: script text, and `c` is looked at again (it may be `<`).
                    if element == .script {
                        scriptText(UnsafeBufferPointer(start: endTag.utf8Start, count: endMatched), at: i)
                    }
                    endMatched = 0
                }
            }
        }
        if let from = keptFrom, from < bytes.count {
            keep(UnsafeBufferPointer(rebasing: bytes[from...]), bytes.count, false)
        }

        func scriptText(_ text: UnsafeBufferPointer<UInt8>, at end: Int) {
            guard !text.isEmpty else { return }
            script(text, scriptStarts, end)
            scriptStarts = false
        }
    }

    /// Looks for `ld+json` in `bytes[range]`, a part of a script's start tag, across parts.
    private mutating func matchJSON(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        let pattern = Self.json.utf8Start
        for i in range where !isJSON {
            let l = Self.lower(bytes[i])
            if l == pattern[jsonMatched] {
                jsonMatched += 1
                if jsonMatched == Self.json.utf8CodeUnitCount { isJSON = true }
            } else {
                jsonMatched = l == pattern[0] ? 1 : 0
            }
        }
    }

    private static func endsUnquotedRun(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ">") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")
    }

    private static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }

    /// What libxml2 2.9's `htmlParseHTMLName` takes to start an element name.
    private static func isNameStart(_ c: UInt8) -> Bool {
        let l = lower(c)
        return (l >= 0x61 && l <= 0x7A) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c == UInt8(ascii: ".")
    }

    private static func isNameChar(_ c: UInt8) -> Bool {
        isNameStart(c) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-")
    }
}
