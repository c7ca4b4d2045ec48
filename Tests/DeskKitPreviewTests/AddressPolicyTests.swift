import DeskKitPreview
import Testing

@Suite("Address policy")
struct AddressPolicyTests {
    @Test(arguments: [
        ("127.0.0.1", "loopback"), ("2130706433", "loopback"), ("0177.0.0.1", "loopback"), ("0x7f.1", "loopback"),
        ("127.1", "loopback"), ("0x7f000001", "loopback"), ("10.1.2.3", "private"), ("172.16.0.1", "private"),
        ("172.31.255.255", "private"), ("192.168.1.1", "private"), ("100.64.0.1", "CGNAT"), ("169.254.169.254", "link-local"),
        ("0.0.0.0", "this network"), ("192.0.0.8", "IETF protocol assignments"), ("192.0.2.1", "documentation"),
        ("198.51.100.7", "documentation"), ("203.0.113.9", "documentation"), ("198.18.0.1", "benchmarking"),
        ("192.88.99.1", "6to4 relay"), ("224.0.0.1", "multicast"), ("240.0.0.1", "reserved"), ("255.255.255.255", "reserved"),
        ("::1", "loopback"), ("::", "unspecified"), ("[::ffff:127.0.0.1]", "loopback (IPv4 inside IPv6)"),
        ("::ffff:7f00:1", "loopback (IPv4 inside IPv6)"), ("::127.0.0.1", "loopback (IPv4 inside IPv6)"),
        ("::ffff:10.0.0.1", "private (IPv4 inside IPv6)"), ("fe80::1", "link-local"), ("fc00::1", "unique local"),
        ("fd12:3456::1", "unique local"), ("fec0::1", "site-local"), ("ff02::1", "multicast"), ("64:ff9b::7f00:1", "NAT64"),
        ("64:ff9b:1::1", "NAT64"), ("100::1", "discard"), ("2001:db8::1", "documentation"), ("2001::1", "Teredo"),
        ("2002:7f00:1::", "6to4"), ("3fff::1", "documentation"), ("2001:10::1", "ORCHID"), ("4000::1", "not global unicast"),
    ])
    func blocks(_ host: String, _ rule: String) throws {
        let address = try #require(IPAddress(host: host))
        #expect(AddressPolicy.blockingRule(address) == rule)
        #expect(AlternativeBlockList.blocks(address), "the independent formulation agrees")
    }

    @Test(arguments: ["93.184.216.34", "8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "2a00:1450::1", "::ffff:8.8.8.8"])
    func allows(_ host: String) throws {
        let address = try #require(IPAddress(host: host))
        #expect(AddressPolicy.blockingRule(address) == nil)
        #expect(!AlternativeBlockList.blocks(address))
    }

    @Test func numericFormsNormalise() {
        #expect(IPAddress(host: "2130706433") == .v4(0x7F00_0001))
        #expect(IPAddress(host: "0177.0.0.1") == .v4(0x7F00_0001))
        #expect(IPAddress(host: "0x7f.1") == .v4(0x7F00_0001))
        #expect(IPAddress(host: "127.1") == .v4(0x7F00_0001))
        #expect(IPAddress(host: "10.1.258") == .v4(0x0A01_0102))
        #expect(IPAddress(host: "256.1.1.1") == nil)
        #expect(IPAddress(host: "example.com") == nil)
        #expect(IPAddress(host: "1.2.3.4.5") == nil)
        #expect(IPAddress(host: "[::ffff:127.0.0.1]")?.description == "::ffff:127.0.0.1")
    }

    @Test func names() {
        #expect(AddressPolicy.blockingRule(hostName: "localhost") != nil)
        #expect(AddressPolicy.blockingRule(hostName: "printer.local") != nil)
        #expect(AddressPolicy.blockingRule(hostName: "xyz.onion") != nil)
        #expect(AddressPolicy.blockingRule(hostName: "example.com") == nil)
    }
}

/// A second, independent formulation of the block list (CIDR strings, parsed and matched bit by bit),
/// to check the policy against.
enum AlternativeBlockList {
    static let cidrs = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
        "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
        "224.0.0.0/4", "240.0.0.0/4",
    ]
    static let cidrs6 = [
        "::/128", "::1/128", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001::/32", "2001:db8::/32", "2001:10::/28",
        "2001:20::/28", "2002::/16", "3fff::/20", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
    ]

    static func bits(_ address: IPAddress) -> [Bool] {
        switch address {
        case .v4(let v): return (0..<32).map { v & (1 << (31 - $0)) != 0 }
        case .v6(let b): return b.flatMap { byte in (0..<8).map { byte & (1 << (7 - $0)) != 0 } }
        }
    }

    static func inside(_ address: IPAddress, _ cidr: String) -> Bool {
        let parts = cidr.split(separator: "/")
        guard let network = IPAddress(host: parts[0]), let length = Int(parts[1]) else { return false }
        let a = bits(address), n = bits(network)
        guard a.count == n.count else { return false }
        return a.prefix(length) == n.prefix(length)
    }

    static func blocks(_ address: IPAddress) -> Bool {
        if case .v6(let b) = address, b.prefix(10).allSatisfy({ $0 == 0 }), (b[10] == 0xFF && b[11] == 0xFF) || (b[10] == 0 && b[11] == 0 && b.suffix(4) != [0, 0, 0, 0] && b.suffix(4) != [0, 0, 0, 1]) {
            let v4 = IPAddress.v4(UInt32(b[12]) << 24 | UInt32(b[13]) << 16 | UInt32(b[14]) << 8 | UInt32(b[15]))
            return blocks(v4)
        }
        switch address {
        case .v4: return cidrs.contains { inside(address, $0) }
        case .v6(let b): return cidrs6.contains { inside(address, $0) } || !(b[0] >= 0x20 && b[0] < 0x40)
        }
    }
}
