#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CUchardet

/// What the bytes themselves say about their encoding, for pages whose declarations are missing or
/// contradicted by the bytes: uchardet (Mozilla's universal detector) names a candidate, and iconv checks
/// that the bytes really are text in an encoding before it is used.
enum CharsetDetection {
    /// uchardet's answer for `bytes` as a libxml2/iconv name, or nil when it has none or names an
    /// encoding iconv does not know.
    static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
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
        if let name = CharsetSniffer.canonicalName(label) { return name }
        return isKnown(label) ? label.uppercased() : nil
    }

    /// Whether iconv can convert from `name`.
    static func isKnown(_ name: String) -> Bool {
        let cd = iconv_open("UTF-8", name)
        guard cd != iconv_t(bitPattern: -1) else { return false }
        iconv_close(cd)
        return true
    }

    /// The encodings in which most byte sequences are invalid, so that text in another encoding shows
    /// up as errors: a declaration of one of these can be contradicted by the bytes.
    static func isMultiByte(_ name: String) -> Bool {
        ["CP932", "SHIFT_JIS", "EUC-JP", "GBK", "GB18030", "BIG5", "BIG5-HKSCS", "CP949", "EUC-KR", "UHC"].contains(
            name)
    }

    /// Whether `bytes` are text in `name` (iconv converts them without an invalid sequence; one cut by
    /// the end of the sample is not counted). Encodings that are not multi-byte accept any bytes.
    static func decodes(_ bytes: UnsafeBufferPointer<UInt8>, as name: String) -> Bool {
        guard isMultiByte(name), let base = bytes.baseAddress else { return true }
        let cd = iconv_open("UTF-8", name)
        guard cd != iconv_t(bitPattern: -1) else { return false }
        defer { iconv_close(cd) }
        var scratch = [CChar](repeating: 0, count: 4096)
        var input = UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: CChar.self)
        var inputLeft = bytes.count
        return scratch.withUnsafeMutableBufferPointer { out in
            while inputLeft > 0 {
                var output = out.baseAddress
                var outputLeft = out.count
                var inputPointer: UnsafeMutablePointer<CChar>? = input
                let result = iconv(cd, &inputPointer, &inputLeft, &output, &outputLeft)
                input = inputPointer!
                if result == -1 {
                    switch errno {
                    case E2BIG: continue
                    case EINVAL: return true  // a sequence cut by the end of the sample
                    default: return false
                    }
                }
            }
            return true
        }
    }
}
