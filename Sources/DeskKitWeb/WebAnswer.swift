import DeskKitJSON

/// What a call of the web module hands back: a little-endian `UInt32` byte count and then the bytes, which
/// JavaScript reads out of the module's memory. An answer from ``block(_:)`` is an allocation of its own, which
/// the caller frees with `dk_free`; one from ``scratch`` is the module's answer buffer, reused by the next call
/// and never freed.
enum WebAnswer {
    /// The answer buffer: grown to the largest answer and kept (WebAssembly runs one call at a time; natively,
    /// nothing calls it from two threads).
    nonisolated(unsafe) static var scratch = Scratch()

    /// A growable buffer whose first four bytes are the count of those after them.
    struct Scratch {
        private var base = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 8)
        private var capacity = 4096
        private var count = 4

        /// The buffer, emptied and then filled by `fill`, with its count written.
        mutating func write(_ fill: (inout Scratch) -> Void) -> UnsafeMutableRawPointer {
            count = 4
            fill(&self)
            base.storeBytes(of: UInt32(truncatingIfNeeded: count - 4).littleEndian, as: UInt32.self)
            // An answer of more than a megabyte is not kept for the next call: the module stays small.
            if capacity > 1 << 20, count <= 4096 { shrink() }
            return base
        }

        private mutating func reserve(_ more: Int) {
            guard count + more > capacity else { return }
            var grown = capacity * 2
            while grown < count + more { grown *= 2 }
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
            bigger.copyMemory(from: base, byteCount: count)
            base.deallocate()
            base = bigger
            capacity = grown
        }

        private mutating func shrink() {
            let smaller = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 8)
            smaller.copyMemory(from: base, byteCount: count)
            base.deallocate()
            base = smaller
            capacity = 4096
        }

        mutating func appendWord(_ word: Int32) {
            reserve(4)
            (base + count).storeBytes(of: UInt32(bitPattern: word).littleEndian, as: UInt32.self)
            count += 4
        }

        /// Writes `word` over the one appended `index` words after the count.
        mutating func setWord(_ word: Int32, at index: Int) {
            precondition(4 + 4 * index + 4 <= count, "a word not yet appended")
            (base + 4 + 4 * index).storeBytes(of: UInt32(bitPattern: word).littleEndian, as: UInt32.self)
        }

        /// Appends the string's UTF-8 bytes, copied whole.
        mutating func append(_ string: String) {
            var string = string
            string.withUTF8 { bytes in
                reserve(bytes.count)
                if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
                count += bytes.count
            }
        }
    }

    /// A block holding `bytes`.
    static func block(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeMutableRawPointer {
        let block = UnsafeMutableRawPointer.allocate(byteCount: 4 + bytes.count, alignment: 4)
        block.storeBytes(of: UInt32(truncatingIfNeeded: bytes.count).littleEndian, as: UInt32.self)
        if let base = bytes.baseAddress { (block + 4).copyMemory(from: base, byteCount: bytes.count) }
        return block
    }

    /// A block holding what `write` writes as JSON, its members' keys in camelCase (JavaScript's convention).
    static func json(_ write: (inout JSONWriter) -> Void) -> UnsafeMutableRawPointer {
        var writer = JSONWriter(capacity: 512)
        writer.camelCaseKeys = true
        write(&writer)
        return writer.withUnsafeBufferPointer { block($0) }
    }

    /// The bytes a caller put at `pointer`, or none.
    static func bytes(_ pointer: UnsafeRawPointer?, _ count: Int) -> UnsafeBufferPointer<UInt8> {
        guard let pointer, count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count)
    }
}
