/// Hexadecimal digits: JSON's `\uXXXX`, percent-encoding's `%XX`, webhook signatures.
@usableFromInline package enum Hex {
    @usableFromInline package static let lowercaseDigits = Array("0123456789abcdef".utf8)
    package static let uppercaseDigits = Array("0123456789ABCDEF".utf8)

    /// The value of one hex digit (either case); nil for any other byte, signs included.
    @inline(__always)
    package static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The bytes that pairs of hex digits stand for; nil when a byte is not a hex digit or one is left over.
    package static func decode(_ digits: some Collection<UInt8>) -> [UInt8]? {
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for digit in digits {
            guard let v = value(digit) else { return nil }
            if let h = high {
                bytes.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return bytes
    }

    /// `bytes` as lowercase hex, two digits a byte.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        for byte in bytes { out += [lowercaseDigits[Int(byte >> 4)], lowercaseDigits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }
}
