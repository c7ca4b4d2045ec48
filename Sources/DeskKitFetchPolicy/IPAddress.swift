#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// An IPv4 address, most significant byte first.
    case v4(UInt32)
    /// An IPv6 address: its 16 bytes in network order.
    case v6([UInt8])  // 16 bytes

    /// Parses an address as a URL host may write it: dotted IPv4 in the numeric forms `inet_aton` accepts
    /// (`127.1`, `0x7f.1`, `0177.0.0.1`, `2130706433`), or IPv6 with or without brackets.
    public init?(host: some StringProtocol) {
        var text = String(host)
        // By bytes: a Character search misses `:` or `%` followed by a combining mark.
        if text.utf8.first == UInt8(ascii: "["), text.utf8.last == UInt8(ascii: "]") {
            text = String(text.unicodeScalars.dropFirst().dropLast())
        }
        if text.utf8.contains(UInt8(ascii: ":")) {
            if let zone = text.utf8.firstIndex(of: UInt8(ascii: "%")) { text = String(text[..<zone]) }
            var bytes = [UInt8](repeating: 0, count: 16)
            guard inet_pton(AF_INET6, text, &bytes) == 1 else { return nil }
            self = .v6(bytes)
            return
        }
        guard let v4 = Self.parseNumericIPv4(text) else { return nil }
        self = .v4(v4)
    }

    /// `inet_aton` semantics: one to four parts, each decimal, octal (leading 0) or hex (0x); the last part
    /// fills the remaining bytes.
    static func parseNumericIPv4(_ s: String) -> UInt32? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            // Digits only (hex ones after 0x): Swift's integer parsing would also take a sign.
            guard !part.isEmpty,
                part.utf8.allSatisfy({ $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") || $0.isHexDigit })
            else { return nil }
            let lower = part.lowercased()
            let value: UInt64?
            if lower.hasPrefix("0x") {
                value = UInt64(lower.dropFirst(2), radix: 16)  // a bare 0x is not a number, as in inet_aton
            } else if lower.count > 1 && lower.hasPrefix("0") {
                value = UInt64(lower.dropFirst(), radix: 8)
            } else {
                value = UInt64(lower, radix: 10)
            }
            guard let value else { return nil }
            values.append(value)
        }
        let last = values.removeLast()
        guard values.allSatisfy({ $0 <= 255 }) else { return nil }
        let lastBits = 8 * (4 - values.count)
        guard last < (UInt64(1) << lastBits) else { return nil }
        var result: UInt64 = 0
        for (i, v) in values.enumerated() { result |= v << (24 - 8 * i) }
        return UInt32(result | last)
    }

    /// The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or IPv4-compatible (`::a.b.c.d`) IPv6 address.
    public var embeddedIPv4: UInt32? {
        guard case .v6(let b) = self, b[0..<10].allSatisfy({ $0 == 0 }) else { return nil }
        let mapped = b[10] == 0xFF && b[11] == 0xFF
        let compatible = b[10] == 0 && b[11] == 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0 && b[15] <= 1)
        guard mapped || compatible else { return nil }
        return UInt32(b[12]) << 24 | UInt32(b[13]) << 16 | UInt32(b[14]) << 8 | UInt32(b[15])
    }

    /// The address as a URL host writes it (IPv6 without brackets).
    public var description: String {
        switch self {
        case .v4(let v): return "\(v >> 24).\(v >> 16 & 0xFF).\(v >> 8 & 0xFF).\(v & 0xFF)"
        case .v6(let b):
            var out = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            var bytes = b
            inet_ntop(AF_INET6, &bytes, &out, socklen_t(out.count))
            return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
