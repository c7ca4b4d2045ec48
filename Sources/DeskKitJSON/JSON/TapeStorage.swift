/// Memory for tapes (tokens, and the text of strings with escapes), kept from one parse to the next so that
/// a stream of texts is parsed without allocating. A tape parsed into a storage is valid until the storage
/// is parsed into again or freed.
package final class TapeStorage {
    var tokens: UnsafeMutablePointer<JSONTape.Token>
    var capacity: Int
    var text: UnsafeMutablePointer<UInt8>
    var textCapacity: Int

    package init(capacity: Int = 64) {
        self.capacity = max(capacity, 8)
        tokens = .allocate(capacity: self.capacity)
        textCapacity = 256
        text = .allocate(capacity: textCapacity)
    }

    /// The memory held, in bytes.
    package var bytes: Int { capacity * MemoryLayout<JSONTape.Token>.stride + textCapacity }

    deinit {
        tokens.deallocate()
        text.deallocate()
    }
}
