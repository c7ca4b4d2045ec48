/// Which addresses a preview fetch may connect to: only global unicast ones.
///
/// Blocked (after unwrapping IPv4-mapped and IPv4-compatible IPv6): this network 0/8, private 10/8,
/// 172.16/12, 192.168/16, CGNAT 100.64/10, loopback 127/8, link-local 169.254/16, IETF 192.0.0/24,
/// documentation 192.0.2/24, 198.51.100/24, 203.0.113/24, 6to4 relay 192.88.99/24, benchmarking
/// 198.18/15, multicast 224/4, reserved 240/4 and broadcast; IPv6 outside 2000::/3 (unspecified, loopback,
/// ULA fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8, discard 100::/64,
/// NAT64 64:ff9b::/96 and 64:ff9b:1::/48), and inside it Teredo 2001::/32, documentation 2001:db8::/32
/// and 3fff::/20, 6to4 2002::/16, ORCHID 2001:10::/28 and 2001:20::/28.
package enum AddressPolicy {
    /// The rule that blocks `address`, or nil when it is a global unicast address.
    package static func blockingRule(_ address: IPAddress) -> String? {
        if let v4 = address.embeddedIPv4 { return blockingRule(.v4(v4)).map { $0 + " (IPv4 inside IPv6)" } }
        switch address {
        case .v4(let a):
            for (network, bits, rule) in v4Rules where a >> (32 - bits) == network >> (32 - bits) { return rule }
            return nil
        case .v6(let b):
            if b.allSatisfy({ $0 == 0 }) { return "unspecified" }
            if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return "loopback" }
            for (prefix, bits, rule) in v6Rules where matches(b, prefix, bits) { return rule }
            if b[0] & 0xE0 != 0x20 { return "not global unicast" }
            return nil
        }
    }

    private static let v4Rules: [(UInt32, UInt32, String)] = [
        (0x0000_0000, 8, "this network"), (0x0A00_0000, 8, "private"), (0x6440_0000, 10, "CGNAT"),
        (0x7F00_0000, 8, "loopback"), (0xA9FE_0000, 16, "link-local"), (0xAC10_0000, 12, "private"),
        (0xC000_0000, 24, "IETF protocol assignments"), (0xC000_0200, 24, "documentation"),
        (0xC058_6300, 24, "6to4 relay"), (0xC0A8_0000, 16, "private"), (0xC612_0000, 15, "benchmarking"),
        (0xC633_6400, 24, "documentation"), (0xCB00_7100, 24, "documentation"), (0xE000_0000, 4, "multicast"),
        (0xF000_0000, 4, "reserved"),
    ]

    private static let v6Rules: [([UInt8], Int, String)] = [
        ([0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0], 96, "NAT64"),
        ([0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01], 48, "NAT64"),
        ([0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, "discard"), ([0x20, 0x01, 0x0D, 0xB8], 32, "documentation"),
        ([0x20, 0x01, 0x00, 0x10], 28, "ORCHID"), ([0x20, 0x01, 0x00, 0x20], 28, "ORCHID"),
        ([0x20, 0x01, 0, 0], 32, "Teredo"),
        ([0x20, 0x02], 16, "6to4"), ([0x3F, 0xFF], 20, "documentation"), ([0xFC], 7, "unique local"),
        ([0xFE, 0x80], 10, "link-local"), ([0xFE, 0xC0], 10, "site-local"), ([0xFF], 8, "multicast"),
    ]

    private static func matches(_ address: [UInt8], _ prefix: [UInt8], _ bits: Int) -> Bool {
        var remaining = bits
        var i = 0
        while remaining > 0 {
            let p = i < prefix.count ? prefix[i] : 0
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if address[i] & mask != p & mask { return false }
            remaining -= 8
            i += 1
        }
        return true
    }

    /// Host names that never resolve to the package Internet.
    package static func blockingRule(hostName: String) -> String? {
        let h = hostName.lowercased()
        for suffix in [".onion", ".i2p", ".local", ".localhost", ".internal", ".home.arpa"] where h.hasSuffix(suffix) {
            return "non-package name (\(suffix))"
        }
        return h == "localhost" ? "loopback name" : nil
    }
}
