import DeskKitJSON

/// What a call of the web module hands back: one allocation, a little-endian `UInt32` byte count and then the
/// bytes, which the caller reads and frees with `dk_free`. JavaScript reads it out of the module's memory.
enum WebAnswer {
    /// A block holding `bytes`.
    static func block(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeMutableRawPointer {
        let block = UnsafeMutableRawPointer.allocate(byteCount: 4 + bytes.count, alignment: 4)
        block.storeBytes(of: UInt32(truncatingIfNeeded: bytes.count).littleEndian, as: UInt32.self)
        if let base = bytes.baseAddress { (block + 4).copyMemory(from: base, byteCount: bytes.count) }
        return block
    }

    /// A block holding what `write` writes as JSON.
    static func json(_ write: (inout JSONWriter) -> Void) -> UnsafeMutableRawPointer {
        var writer = JSONWriter(capacity: 512)
        write(&writer)
        return writer.withUnsafeBufferPointer { block($0) }
    }

    /// The bytes a caller put at `pointer`, or none.
    static func bytes(_ pointer: UnsafeRawPointer?, _ count: Int) -> UnsafeBufferPointer<UInt8> {
        guard let pointer, count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count)
    }
}
