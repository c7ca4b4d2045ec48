/// Punycode (RFC 3492) for IDN host labels: `bücher` → `xn--bcher-kva`.
public enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    /// The ASCII form of a host: each label with non-ASCII characters lowercased and written as `xn--…`.
    /// Labels are split at every `.` code point, also one a combining mark follows.
    public static func asciiHost(_ host: some StringProtocol) -> String { asciiHost(String(host)) }

    /// The ASCII form of a host (see the generic form): a host that is all ASCII is given back as it is.
    /// Its UTF-8 is split at the byte of `.`, which is the code point and never part of another's bytes.
    public static func asciiHost(_ host: String) -> String {
        guard host.utf8.contains(where: { $0 >= 0x80 }) else { return host }
        var out: [UInt8] = []
        out.reserveCapacity(host.utf8.count + 16)
        for (i, label) in host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ".")) }
            if label.allSatisfy({ $0 < 0x80 }) {
                out += label
            } else {
                out += "xn--".utf8
                out += encode(String(decoding: label, as: UTF8.self).lowercased()).utf8
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Encodes a label (without the `xn--` prefix).
    public static func encode(_ label: String) -> String {
        let input = label.unicodeScalars.map { $0.value }
        var output = input.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = UInt32(initialN)
        var delta = 0
        var bias = initialBias
        while handled < input.count {
            let m = input.filter { $0 >= n }.min()!
            delta += Int(m - n) * (handled + 1)
            n = m
            for c in input {
                if c < n { delta += 1 }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes a label's rest after `xn--` (`bcher-kva`) into the scalar values it spells, appended to `output`
    /// (its basic code points lowercased); false when it is no punycode or spells a value that is no scalar.
    /// Quadratic in the label's length: callers bound it.
    package static func decode(_ ace: some Collection<UInt8>, into output: inout [UInt32]) -> Bool {
        let ace = Array(ace)
        var start = 0
        if let dash = ace.lastIndex(of: UInt8(ascii: "-")) {
            for b in ace[..<dash] {
                guard b < 0x80 else { return false }
                output.append(UInt32(b | ((0x41...0x5A).contains(b) ? 0x20 : 0)))
            }
            start = dash + 1
        }
        var n = initialN
        var i = 0
        var bias = initialBias
        var at = start
        while at < ace.count {
            let old = i
            var w = 1
            var k = base
            while true {
                guard at < ace.count, let digit = value(ofDigit: ace[at]) else { return false }
                at += 1
                i += digit * w
                guard i <= 0x10FFFF * (output.count + 1) else { return false }
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                w *= base - t
                guard w <= 0x10FFFF * (output.count + 1) else { return false }
                k += base
            }
            bias = adapt(i - old, output.count + 1, old == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n <= 0x10FFFF, !(0xD800...0xDFFF).contains(n) else { return false }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        return true
    }

    private static func digit(_ d: Int) -> UInt8 { d < 26 ? UInt8(97 + d) : UInt8(22 + d) }

    /// The value of a punycode digit (`a`–`z` in either case 0–25, `0`–`9` 26–35), or nil.
    private static func value(ofDigit b: UInt8) -> Int? {
        switch b {
        case 0x30...0x39: Int(b) - 0x30 + 26
        case 0x41...0x5A: Int(b) - 0x41
        case 0x61...0x7A: Int(b) - 0x61
        default: nil
        }
    }

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
