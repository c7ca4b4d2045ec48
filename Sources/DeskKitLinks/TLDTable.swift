/// The top-level domains (``TopLevelDomains/names``: ASCII names, punycode forms and IDN names in UTF-8) as an
/// open-addressing hash table over their bytes, so that a label of the text is looked up where it lies,
/// ASCII letters lowercased as it is hashed, without making a `String` of it. (A label in another script
/// written in capitals, `РФ`, is not found here: the caller lowercases it.)
struct TLDTable: Sendable {
    static let shared = TLDTable(TopLevelDomains.bytes)

    /// Every name's bytes, one after another (the first byte is unused: offset 0 marks an empty slot).
    private let names: [UInt8]
    /// Each slot: a name's offset in `names` shifted left 8 bits, and its length; 0 when empty.
    private let slots: [UInt32]
    private let mask: Int

    /// The table of `list`, names separated by spaces.
    init(_ list: UnsafeBufferPointer<UInt8>) {
        let ranges = list.indices.split { list[$0] == UInt8(ascii: " ") }
        var size = 1
        while size < ranges.count * 3 { size <<= 1 }
        var slots = [UInt32](repeating: 0, count: size)
        for r in ranges {
            var i = Self.hash(list, r) & (size - 1)
            while slots[i] != 0 { i = (i + 1) & (size - 1) }
            slots[i] = UInt32(1 + r.lowerBound) << 8 | UInt32(r.count)
        }
        self.names = [0] + list
        self.slots = slots
        mask = size - 1
    }

    /// Whether the bytes `b[r]`, ASCII letters lowercased, are a top-level domain.
    func contains(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count > 0, r.count <= 63 else { return false }
        var i = Self.hash(b, r) & mask
        while true {
            let slot = slots[i]
            if slot == 0 { return false }
            if Int(slot & 0xFF) == r.count {
                let offset = Int(slot >> 8)
                var equal = true
                for k in 0..<r.count where names[offset + k] != Self.lower(b[r.lowerBound + k]) {
                    equal = false
                    break
                }
                if equal { return true }
            }
            i = (i + 1) & mask
        }
    }

    @inline(__always) private static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }

    /// FNV-1a over the lowercased bytes.
    @inline(__always) private static func hash(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Int {
        var h: UInt32 = 2_166_136_261
        for i in r { h = (h ^ UInt32(lower(b[i]))) &* 16_777_619 }
        return Int(truncatingIfNeeded: h)  // negative where Int is 32 bits (WebAssembly): the mask makes it an index
    }
}
