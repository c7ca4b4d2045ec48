/// UTF-8 well-formedness (Unicode Table 3-7).
package enum UTF8Validation {
    /// The offset of the first byte that starts an ill-formed sequence, or nil when all is well-formed.
    package static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < bytes.count {
            if bytes[i] < 0x80 {
                i += 1
                continue
            }
            let n = sequenceLength(bytes, at: i)
            if n == 0 { return i }
            i += n
        }
        return nil
    }

    /// The length of the well-formed sequence starting at `i` (1–4), or 0 when it is ill-formed.
    @inlinable @inline(__always) package static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int)
        -> Int
    {
        let n = bytes.count
        let b0 = bytes[i]
        if b0 < 0x80 { return 1 }
        @inline(__always) func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
            i + k < n && bytes[i + k] >= lo && bytes[i + k] <= hi
        }
        switch b0 {
        case 0xC2...0xDF: return cont(1) ? 2 : 0
        case 0xE0: return cont(1, 0xA0) && cont(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return cont(1) && cont(2) ? 3 : 0
        case 0xED: return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0
        case 0xF0: return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0
        case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : 0
        case 0xF4: return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0
        default: return 0
        }
    }

    /// True when every byte is well-formed UTF-8.
    package static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        if let r = bytes.withContiguousStorageIfAvailable({ firstInvalidOffset(in: $0) == nil }) { return r }
        return Array(bytes).withUnsafeBufferPointer { firstInvalidOffset(in: $0) == nil }
    }
}
