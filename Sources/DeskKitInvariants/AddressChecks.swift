#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import DeskKitFetchPolicy

enum AddressChecks {
    /// The input as 4 or 16 raw bytes and as host text: the address check agrees with
    /// ``AlternativeBlockList``; dotted IPv4 parses as glibc's `inet_aton` does; an address prints and
    /// parses back to itself. The input as a URL: a parsed URL is http(s) with a port in range and a
    /// request string that parses back to the same URL.
    static func address(_ bytes: UnsafeBufferPointer<UInt8>) throws(InvariantViolation) {
        if bytes.count == 4 {
            try agree(.v4(bytes.reduce(0) { $0 << 8 | UInt32($1) }))
        } else if bytes.count == 16 {
            try agree(.v6(Array(bytes)))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if let address = IPAddress(host: text) {
            try agree(address)
            try require(IPAddress(host: address.description) == address, "\(address) does not parse back to itself")
        }
        try ipv4AgreesWithInetAton(text)
        try url(text)
    }

    static func agree(_ address: IPAddress) throws(InvariantViolation) {
        let rule = AddressPolicy.blockingRule(address)
        try require(
            (rule != nil) == AlternativeBlockList.blocks(address),
            "\(address): the policy says \(rule ?? "allowed"), the independent list disagrees")
    }

    /// Plain dotted numbers (no white space, which `inet_aton` stops at) parse as `inet_aton` reads them.
    static func ipv4AgreesWithInetAton(_ text: String) throws(InvariantViolation) {
        guard !text.isEmpty, text.utf8.count < 64, !text.contains(":"), !text.contains("["),
            text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return }
        var reference = in_addr()
        let ok = inet_aton(text, &reference) != 0
        let ours = IPAddress(host: text)
        if ok {
            try require(
                ours == .v4(UInt32(bigEndian: reference.s_addr)),
                "\(excerpt(text)): inet_aton reads an address, we read \(ours as Any)")
        } else {
            try require(ours == nil, "\(excerpt(text)): inet_aton rejects it, we read \(ours!)")
        }
    }

    static func url(_ text: String) throws(InvariantViolation) {
        guard let url = try? WebURL(text) else { return }
        try require(url.scheme == "http" || url.scheme == "https", "a fetchable URL with scheme \(url.scheme)")
        try require((1...65535).contains(url.port), "port \(url.port) out of range")
        try require(url.pathAndQuery.hasPrefix("/"), "a request path that does not start with /")
        let request = url.requestString
        guard let again = try? WebURL(request) else {
            throw InvariantViolation("the request string \(excerpt(request)) does not parse")
        }
        try require(
            again.asciiHost == url.asciiHost && again.port == url.port && again.pathAndQuery == url.pathAndQuery,
            "\(excerpt(text)) requests \(excerpt(request)), which parses to another URL")
    }
}

/// A second, independent formulation of the SSRF block list (CIDR strings, parsed and matched bit by
/// bit), to check `AddressPolicy` against.
package enum AlternativeBlockList {
    static let cidrs = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
        "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
        "224.0.0.0/4", "240.0.0.0/4",
    ]
    static let cidrs6 = [
        "::/128", "::1/128", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001::/32", "2001:db8::/32", "2001:10::/28",
        "2001:20::/28", "2002::/16", "3fff::/20", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
    ]
    static let networks4 = cidrs.map(network)
    static let networks6 = cidrs6.map(network)

    static func network(_ cidr: String) -> ([Bool], Int) {
        let parts = cidr.split(separator: "/")
        return (bits(IPAddress(host: parts[0])!), Int(parts[1])!)
    }

    static func bits(_ address: IPAddress) -> [Bool] {
        switch address {
        case .v4(let v): return (0..<32).map { v & (1 << (31 - $0)) != 0 }
        case .v6(let b): return b.flatMap { byte in (0..<8).map { byte & (1 << (7 - $0)) != 0 } }
        }
    }

    /// Whether the list blocks `address`.
    package static func blocks(_ address: IPAddress) -> Bool {
        if case .v6(let b) = address, b.prefix(10).allSatisfy({ $0 == 0 }),
            (b[10] == 0xFF && b[11] == 0xFF)
                || (b[10] == 0 && b[11] == 0 && b.suffix(4) != [0, 0, 0, 0] && b.suffix(4) != [0, 0, 0, 1])
        {
            return blocks(.v4(UInt32(b[12]) << 24 | UInt32(b[13]) << 16 | UInt32(b[14]) << 8 | UInt32(b[15])))
        }
        let a = bits(address)
        switch address {
        case .v4: return networks4.contains { a.prefix($0.1) == $0.0.prefix($0.1) }
        case .v6(let b):
            return networks6.contains { a.prefix($0.1) == $0.0.prefix($0.1) } || !(b[0] >= 0x20 && b[0] < 0x40)
        }
    }
}
