/// Percent-encoding (`%XX`, uppercase hex, of UTF-8 bytes), with the caller deciding which bytes are encoded:
/// link hrefs in ASCII, URL paths as sent, a channel URL as one path segment.
package enum PercentEncoding {
    /// Appends `bytes` to `out`, each byte for which `encodes` holds as `%XX`.
    package static func append(
        _ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], encoding encodes: (UInt8) -> Bool
    ) {
        for byte in bytes {
            if encodes(byte) {
                out.append(UInt8(ascii: "%"))
                out.append(Hex.uppercaseDigits[Int(byte >> 4)])
                out.append(Hex.uppercaseDigits[Int(byte & 15)])
            } else {
                out.append(byte)
            }
        }
    }

    /// `s` with each UTF-8 byte for which `encodes` holds as `%XX` (`s` itself when there is none).
    package static func encode(_ s: String, encoding encodes: (UInt8) -> Bool) -> String {
        guard s.utf8.contains(where: encodes) else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 16)
        var s = s
        s.withUTF8 { append($0, to: &out, encoding: encodes) }
        return String(decoding: out, as: UTF8.self)
    }
}
