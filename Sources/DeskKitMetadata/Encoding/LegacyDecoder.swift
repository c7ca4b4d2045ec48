#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decodes a legacy encoding to UTF-8 as browsers do (the WHATWG Encoding Standard), a slice at a time.
///
/// iconv's tables, which agree with the standard's indexes on every character of Shift_JIS (CP932) and
/// GBK and on all but a few of gb18030, Big5 and EUC-JP, with those few patched (``patches``, generated
/// from the standard's reference decodings by `Scripts/whatwg-legacy-patches.py`). What iconv refuses the
/// standard reads as U+FFFD and goes on: a lead byte and a non-ASCII byte after it are one error, an ASCII
/// byte after a lead is read again as itself. (libxml2's own iconv handler ends the page at the first byte it
/// cannot convert: one stray byte in a title lost the title and everything after it.) Also as the standard:
/// GBK is read as gb18030, EUC-KR as windows-949, Big5 with the HKSCS extensions, Shift_JIS's user-defined
/// area as the Private Use Area, and the bytes the windows-125x and windows-874 code pages leave undefined as
/// the C1 controls of the same value.
final class LegacyDecoder {
    /// The encoding, as ``CharsetDecision/name`` names it.
    let name: String
    private let converter: iconv_t
    private let kind: Kind
    private let patches: (errors: [UInt16: UInt32], remaps: [UInt32: UInt32])?
    /// The start of a sequence cut by the end of the last slice.
    private var carry: [UInt8] = []
    /// Bytes read as U+FFFD so far.
    private(set) var errors = 0

    private enum Kind {
        /// Two bytes at most a character, the second maybe ASCII (Shift_JIS, Big5, windows-949, gb18030's
        /// two-byte part, EUC-JP).
        case multiByte
        /// A windows code page: its undefined bytes are C1 controls.
        case windowsCodePage
        /// Any other encoding iconv knows (ISO-8859-x, KOI8…): what it refuses is U+FFFD, byte by byte.
        case other
    }

    /// Whether `name` is decoded here rather than by libxml2 itself (UTF-8 and UTF-16 are libxml2's).
    static func handles(_ name: String) -> Bool {
        !(name == "UTF-8" || name.hasPrefix("UTF-16"))
    }

    /// A decoder for `name` (``CharsetDecision/name``); nil when iconv does not know it.
    init?(name: String) {
        let encoding = WebEncoding.named(name) ?? WebEncoding.detected(name)
        let iconvName = encoding?.iconvName ?? name
        let converter = iconv_open("UTF-8", iconvName)
        guard let converter, converter != iconv_t(bitPattern: -1) else { return nil }
        self.name = name
        self.converter = converter
        patches = Self.patches[iconvName]
        kind =
            switch encoding?.kind {
            case .multiByte: .multiByte
            case .windowsCodePage: .windowsCodePage
            default: .other
            }
        shiftJIS = iconvName == "CP932"
    }

    private let shiftJIS: Bool

    deinit { iconv_close(converter) }

    /// Appends the UTF-8 of `input` (after what the last slice left cut) to `out`. A sequence cut by the end
    /// of `input` waits for the next slice; with `final`, it is an error.
    func decode(_ input: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) {
        if carry.isEmpty {
            run(input, final: final, into: &out)
        } else {
            let joined = carry + input
            carry = []
            joined.withUnsafeBufferPointer { run($0, final: final, into: &out) }
        }
    }

    private func run(_ input: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        var i = 0
        var chunk = [UInt8](repeating: 0, count: min(input.count, 16 * 1024) * 4 + 16)
        while i < input.count {
            var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(mutating: base + i)
                .assumingMemoryBound(to: CChar.self)
            var inLeft = input.count - i
            var outLeft = chunk.count
            let (result, code) = chunk.withUnsafeMutableBytes { raw -> (Int, Int32) in
                var outPointer: UnsafeMutablePointer<CChar>? = raw.baseAddress?.assumingMemoryBound(to: CChar.self)
                let r = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                return (r, r == -1 ? errno : 0)
            }
            let produced = chunk.count - outLeft
            append(chunk.prefix(produced), to: &out)
            i = input.count - inLeft
            guard result == -1 else { break }
            switch code {
            case E2BIG:
                continue
            case EINVAL:
                // A sequence cut by the end of the input.
                if final {
                    emitError(into: &out)
                    i = input.count
                } else {
                    carry = Array(input[i...])
                    i = input.count
                }
            default:
                // (glibc may refuse a sequence after taking it whole: then it is one error.)
                if i < input.count {
                    i += recover(input, at: i, into: &out)
                } else {
                    emitError(into: &out)
                }
                _ = iconv(converter, nil, nil, nil, nil)
            }
        }
    }

    /// What the standard reads at `i`, where iconv refused: a patched character, or U+FFFD. Returns how many
    /// bytes it took.
    private func recover(_ input: UnsafeBufferPointer<UInt8>, at i: Int, into out: inout [UInt8]) -> Int {
        let lead = input[i]
        let trail: UInt8? = i + 1 < input.count ? input[i + 1] : nil
        switch kind {
        case .windowsCodePage:
            if lead >= 0x80, lead < 0xA0 {
                appendScalar(UInt32(lead), to: &out)
            } else {
                emitError(into: &out)
            }
            return 1
        case .other:
            emitError(into: &out)
            return 1
        case .multiByte:
            if let trail {
                let pair = UInt16(lead) << 8 | UInt16(trail)
                if let scalar = patches?.errors[pair] {
                    appendScalar(scalar, to: &out)
                    return 2
                }
                // Shift_JIS's user-defined area (leads F0-F9) is the Private Use Area.
                if shiftJIS, (0xF0...0xF9).contains(lead),
                    (0x40...0x7E).contains(trail) || (0x80...0xFC).contains(trail)
                {
                    let pointer = (Int(lead) - 0xC1) * 188 + Int(trail) - (trail < 0x7F ? 0x40 : 0x41)
                    appendScalar(UInt32(0xE000 - 8836 + pointer), to: &out)
                    return 2
                }
            }
            if shiftJIS, lead == 0x80 {
                appendScalar(0x80, to: &out)
                return 1
            }
            emitError(into: &out)
            // A lead and a non-ASCII byte after it are one error; an ASCII byte is read again.
            return trail.map { $0 >= 0x80 && lead >= 0x81 } == true ? 2 : 1
        }
    }

    /// Appends iconv's output, with the characters the standard decodes otherwise remapped.
    private func append(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        guard let remaps = patches?.remaps, !remaps.isEmpty else {
            out.append(contentsOf: bytes)
            return
        }
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            // The characters remapped are all above U+007F.
            let length = b < 0xE0 ? (b < 0xC0 ? 1 : 2) : (b < 0xF0 ? 3 : 4)
            let end = min(i + length, bytes.endIndex)
            if length >= 2, end - i == length {
                var scalar = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for j in (i + 1)..<end { scalar = scalar << 6 | UInt32(bytes[j] & 0x3F) }
                if let replacement = remaps[scalar] {
                    appendScalar(replacement, to: &out)
                    i = end
                    continue
                }
            }
            out.append(contentsOf: bytes[i..<end])
            i = end
        }
    }

    private func emitError(into out: inout [UInt8]) {
        errors += 1
        out += [0xEF, 0xBF, 0xBD]
    }

    private func appendScalar(_ value: UInt32, to out: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(value) else { return emitError(into: &out) }
        out.append(contentsOf: UTF8.encode(scalar)!)
    }
}
