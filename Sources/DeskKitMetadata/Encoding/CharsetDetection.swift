#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(CUchardet)
    import CUchardet
#endif

/// What the bytes themselves say about their encoding, for pages whose declarations are missing or
/// contradicted by the bytes: uchardet (Mozilla's universal detector) names a candidate, and iconv checks
/// that the bytes really are text in an encoding before it is used.
enum CharsetDetection {
    /// uchardet's answer for `bytes` as a libxml2/iconv name, or nil when it has none or names an
    /// encoding iconv does not know. Nil where uchardet is not linked (Apple's systems, which do not ship it):
    /// the HTML standard's rules decide alone.
    static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        #if canImport(CUchardet)
            return uchardetAnswer(bytes)
        #else
            return nil
        #endif
    }

    #if canImport(CUchardet)
        private static func uchardetAnswer(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
            guard let base = bytes.baseAddress, let detector = uchardet_new() else { return nil }
            defer { uchardet_delete(detector) }
            let status = UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                uchardet_handle_data(detector, $0, bytes.count)
            }
            guard status == 0 else { return nil }
            uchardet_data_end(detector)
            guard let answer = uchardet_get_charset(detector) else { return nil }
            let label = String(cString: answer)
            guard !label.isEmpty else { return nil }
            if let encoding = WebEncoding.detected(label) { return encoding.withoutByteOrderMark.name }
            return isKnown(label) ? label.uppercased() : nil
        }
    #endif

    /// Whether iconv can convert from `name`.
    static func isKnown(_ name: String) -> Bool {
        let cd = iconv_open("UTF-8", name)
        guard cd != iconv_t(bitPattern: -1) else { return false }
        iconv_close(cd)
        return true
    }

    /// Whether `name` is an encoding in which most byte sequences are invalid, so that text in another
    /// encoding shows up as errors: a declaration of one of these can be contradicted by the bytes.
    static func isMultiByte(_ name: String) -> Bool { WebEncoding.named(name)?.kind == .multiByte }

    /// How well `bytes` read as text in `name`.
    enum Fit {
        /// Without an error.
        case clean
        /// With errors that are strays among valid characters — at most one in five of its non-ASCII
        /// characters — as a page with a stray byte in a title still is Shift_JIS to a browser.
        case strays
        /// Mostly errors: text in another encoding.
        case contradicted
    }

    /// How well `bytes` read in `name`, decoded as browsers decode it (``LegacyDecoder``); a sequence cut by
    /// the end of the sample is not counted. Encodings that are not multi-byte read any bytes cleanly.
    static func fit(_ bytes: UnsafeBufferPointer<UInt8>, as name: String) -> Fit {
        guard isMultiByte(name) else { return .clean }
        guard let decoder = LegacyDecoder(name: name) else { return .contradicted }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        decoder.decode(bytes, final: false, into: &out)
        guard decoder.errors > 0 else { return .clean }
        let characters = out.reduce(0) { $0 + ($1 >= 0xC0 ? 1 : 0) } - decoder.errors
        return decoder.errors * 5 <= characters ? .strays : .contradicted
    }

    /// Whether `bytes` are text in `name`: cleanly, or with stray errors (see ``fit(_:as:)``).
    static func decodes(_ bytes: UnsafeBufferPointer<UInt8>, as name: String) -> Bool {
        fit(bytes, as: name) != .contradicted
    }
}
