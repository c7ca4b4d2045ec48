/// Where a host was found and what it is.
struct HostMatch {
    var range: Range<Int>
    var labelCount: Int
    /// The last label is a delegated top-level domain.
    var knownTLD: Bool
    var tld: Range<Int>?
    var isIPv4: Bool
}

/// The labels of a run of host characters, as ranges of the text: each label ends where `ends` says and the
/// next begins after its dot.
struct HostLabels: RandomAccessCollection {
    let start: Int
    let ends: UnsafeBufferPointer<Int>

    var startIndex: Int { 0 }
    var endIndex: Int { ends.count }

    subscript(k: Int) -> Range<Int> { (k == 0 ? start : ends[k - 1] + 1)..<ends[k] }
}

/// How much a host must prove.
enum HostMode {
    /// After a scheme: any well-formed host, all of its labels; a known TLD is looked for only to know
    /// where a last label glued to other-script text ends (`http://example.comだよね`).
    case scheme
    /// After a scheme with ``LinkDetector/Options/strictHosts``: a known TLD, an IP address or `localhost`.
    case strict
    /// After `//`: two labels at least, or `localhost`.
    case protocolRelative
    /// No scheme: a known TLD (or an IPv4 address, which the caller allows or not); labels stop where CJK
    /// and other scripts meet.
    case bare
    /// The domain of an e-mail address: a known TLD.
    case emailDomain
}

extension LinkScanner {
    /// The longest top-level domain, in scalars.
    static let longestTLD = 24

    /// Parses a host starting at `start`.
    func parseHost(from start: Int, mode: HostMode) -> HostMatch? {
        guard start < n else { return nil }
        if b[start] == UInt8(ascii: "["), mode == .scheme || mode == .strict || mode == .protocolRelative {
            return ipv6(from: start)
        }
        // 128 labels, as many as a DNS name can have; their ends fit the stack (1 KB), so no host costs a
        // heap allocation.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 128) { ends in
            let labels = scanLabels(from: start, splitScripts: mode == .bare || mode == .emailDomain, into: ends)
            return host(from: start, labels: labels, mode: mode)
        }
    }

    /// Splits the run of host characters from `start` into labels (at most `ends.count`).
    func scanLabels(from start: Int, splitScripts: Bool, into ends: UnsafeMutableBufferPointer<Int>) -> HostLabels {
        var count = 0
        var i = start
        var labelStart = start
        var cjk: Bool?
        while i < n, count < ends.count - 1 {
            // A run of ASCII letters, digits, `-` and `_`, byte by byte — unless it follows CJK in a host whose
            // scripts split it (`東京abc`), where the scalar-by-scalar loop finds where the label ends.
            if b[i] < 0x80, b[i] != 0x2E, !(splitScripts && cjk == true) {
                let run = i
                while i < n, CharClass.isASCIIHostByte(b[i]) { i += 1 }
                if splitScripts, b[run..<i].contains(where: { $0 != 0x2D && $0 != 0x5F }) {
                    if cjk == true { break }
                    cjk = false
                }
                guard i < n, b[i] >= 0x80 || b[i] == 0x2E else { break }
                continue
            }
            let (c, len) = b.scalar(at: i)
            if c == 0x2E {
                if i == labelStart { break }
                ends[count] = i
                count += 1
                i += 1
                labelStart = i
                cjk = nil
                continue
            }
            guard Self.isHostScalar(c) else { break }
            if splitScripts, Self.isLetterOrDigit(c) {
                let isCJK = CharClass.isCJK(c)
                if let cjk, cjk != isCJK { break }
                cjk = isCJK
            }
            i += len
        }
        // Dashes that end the host are not its own (`example.com-`): the host ends before them. Inside it
        // (`example-.com`, `example.-com`) they make a label no host has.
        while i > labelStart, b[i - 1] == UInt8(ascii: "-") { i -= 1 }
        if i > labelStart {
            ends[count] = i
            count += 1
        }
        return HostLabels(start: start, ends: UnsafeBufferPointer(rebasing: ends[0..<count]))
    }

    /// Decides where the host made of `labels` ends, and whether it is one.
    func host(from start: Int, labels: HostLabels, mode: HostMode) -> HostMatch? {
        guard !labels.isEmpty else { return nil }
        // Where the host ends: at the last label that is (or begins with) a known TLD. After a scheme the
        // whole run is the host (`http://nick.is.awesome/`), unless text runs on from its last label.
        for k in stride(from: labels.count - 1, through: 1, by: -1) {
            guard let tld = tldMatch(labels[k]), mode != .scheme || k == labels.count - 1 || tld != labels[k]
            else { continue }
            for i in 0..<k where !validLabel(labels[i], index: i, count: k + 1, registrable: true) { return nil }
            if mode == .emailDomain, labels[0...k].contains(where: reservedDashes) { return nil }
            guard validLabel(tld, index: k, count: k + 1, registrable: true) else { return nil }
            guard tld.upperBound >= n || !isForbiddenAfterHost(tld.upperBound, mode: mode) else { return nil }
            return HostMatch(
                range: start..<tld.upperBound, labelCount: k + 1, knownTLD: true, tld: tld, isIPv4: false)
        }
        let end = labels.last!.upperBound
        if end < n, isForbiddenAfterHost(end, mode: mode) { return nil }
        if isIPv4(labels) {
            return HostMatch(range: start..<end, labelCount: 4, knownTLD: false, tld: nil, isIPv4: true)
        }
        // Dotted numbers that are not four parts of 0–255 (`1.2.3`, `10.0.0.1-2`): neither an address nor a
        // domain.
        if labels.count > 1,
            labels.allSatisfy({ label in b[label].allSatisfy { CharClass.isASCIIDigit(UInt32($0)) || $0 == 0x2D } })
        {
            return nil
        }
        let localhost = labels.count == 1 && isLowercased(labels[0], "localhost")
        switch mode {
        case .scheme:
            break
        case .strict:
            guard localhost else { return nil }
        case .protocolRelative:
            guard labels.count >= 2 || localhost else { return nil }
        case .emailDomain:
            // Unchecked domains (``LinkDetector/Options/anyEmailDomain``): two labels at least.
            guard options.anyEmailDomain, labels.count >= 2 else { return nil }
        case .bare:
            return nil
        }
        for (i, label) in labels.enumerated()
        where !validLabel(label, index: i, count: labels.count, registrable: false) {
            return nil
        }
        return HostMatch(range: start..<end, labelCount: labels.count, knownTLD: false, tld: nil, isIPv4: false)
    }

    /// The label itself when it is a TLD, or its longest TLD prefix when what follows the prefix is
    /// non-ASCII text (`example.comだよね`): CJK text runs on from domains without a space.
    func tldMatch(_ label: Range<Int>) -> Range<Int>? {
        // An ASCII label is a TLD or is none; only a label with other scripts glued on may begin with one.
        // Other scripts are looked up as written first, and lowercased only when not found so.
        if TLDTable.shared.contains(b, label) { return label }
        if b[label].allSatisfy({ $0 < 0x80 }) { return nil }
        if isLowercasedTLD(label) { return label }
        var ends: [Int] = []
        var i = label.lowerBound
        while i < label.upperBound, ends.count < Self.longestTLD {
            i += b.scalar(at: i).1
            ends.append(i)
        }
        for end in ends.dropLast().reversed() where b[end] >= 0x80 {
            let prefix = label.lowerBound..<end
            guard prefix.count >= 2 else { continue }
            if TLDTable.shared.contains(b, prefix)
                || (b[prefix].contains { $0 >= 0x80 } && isLowercasedTLD(prefix))
            {
                return label.lowerBound..<end
            }
        }
        return nil
    }

    /// A label of 1–63 characters that neither starts nor ends with `-` or `_`; an `xn--` label in ASCII;
    /// no `_` in the last label, nor in the one before it when the last is a TLD (`registrable`).
    func validLabel(_ label: Range<Int>, index: Int, count: Int, registrable: Bool) -> Bool {
        let first = b[label.lowerBound]
        let last = b[label.upperBound - 1]
        if first == 0x2D || first == 0x5F || last == 0x2D || last == 0x5F { return false }
        var scalars = 0
        var ascii = true
        var underscore = false
        for c in b[label] {
            if c >= 0x80 { ascii = false }
            if c == 0x5F { underscore = true }
            if c & 0xC0 != 0x80 { scalars += 1 }
        }
        if scalars > 63 { return false }
        if !ascii, label.count >= 4, isLowercased(label.lowerBound..<label.lowerBound + 4, "xn--") { return false }
        return !(underscore && index >= count - (registrable ? 2 : 1))
    }

    /// `--` in the third and fourth places of a label other than `xn--` (`ab--cd`): reserved by IDNA, so no
    /// real domain of an e-mail address has it.
    func reservedDashes(_ label: Range<Int>) -> Bool {
        label.count >= 4 && b[label.lowerBound + 2] == 0x2D && b[label.lowerBound + 3] == 0x2D
            && !isLowercased(label.lowerBound..<label.lowerBound + 2, "xn")
    }

    func isIPv4(_ labels: HostLabels) -> Bool {
        guard labels.count == 4 else { return false }
        for label in labels {
            guard label.count <= 3, b[label].allSatisfy({ CharClass.isASCIIDigit(UInt32($0)) }) else { return false }
            var v = 0
            for d in b[label] { v = v * 10 + Int(d - 0x30) }
            if v > 255 { return false }
        }
        return true
    }

    /// After a bare host, `@` means an e-mail address and `+` a local part; a host is never followed by them.
    func isForbiddenAfterHost(_ i: Int, mode: HostMode) -> Bool {
        let c = b[i]
        if c == UInt8(ascii: "@") { return true }
        return (mode == .bare || mode == .emailDomain) && c == UInt8(ascii: "+")
    }

    /// `[v6address]`, with hex groups, `::` and a dotted IPv4 tail.
    func ipv6(from start: Int) -> HostMatch? {
        var i = start + 1
        var colons = 0
        while i < n, i - start < 48 {
            let c = b[i]
            if c == UInt8(ascii: "]") { break }
            guard
                CharClass.isASCIIDigit(UInt32(c)) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) || c == 0x3A
                    || c == 0x2E
            else { return nil }
            if c == 0x3A { colons += 1 }
            i += 1
        }
        guard i < n, b[i] == UInt8(ascii: "]"), colons >= 2, colons <= 7 else { return nil }
        return HostMatch(range: start..<i + 1, labelCount: 1, knownTLD: false, tld: nil, isIPv4: false)
    }

    /// The end of the run of host characters and dots from `i` (used to skip the dots of a rejected host).
    func hostRunEnd(from i: Int) -> Int {
        var j = i
        while j < n {
            let (c, len) = b.scalar(at: j)
            guard c == 0x2E || Self.isHostScalar(c) else { break }
            j += len
        }
        return j
    }

    /// Whether a label in other scripts is a TLD once lowercased (`РФ`), which the byte table cannot answer
    /// as written.
    func isLowercasedTLD(_ r: Range<Int>) -> Bool {
        var lowered = String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self).lowercased()
        return lowered.withUTF8 { TLDTable.shared.contains($0, 0..<$0.count) }
    }
}
