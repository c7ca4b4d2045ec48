/// Decodes a stream of message envelopes, keeping its working memory (parse tapes, decoded base64) from
/// one message to the next: the fast way to read many messages.
///
/// ```swift
/// var decoder = DeskMessageDecoder()
/// for line in lines {
///     let message = line.withUnsafeBufferPointer { decoder.decode($0) }
///     if message.isVisible(to: .customer) { show(message) }
/// }
/// ```
///
/// A decoder is a value: copies share nothing observable, and each copy used on its own thread is safe.
/// It gives the same messages as ``DeskMessage/init(jsonBytes:options:)``.
public struct DeskMessageDecoder: Sendable {
    public var options: DecodingOptions
    private var scratch: DecodingScratch

    public init(options: DecodingOptions = .lenient) {
        self.options = options
        scratch = DecodingScratch()
    }

    /// Decodes one envelope from UTF-8 bytes. Lenient by default: never throws; text that is not a
    /// message gives a ``DeskContent/malformed(_:)`` message saying where it breaks.
    public mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> DeskMessage {
        // The working memory is only ever used by one decode at a time: a copy of this decoder that
        // shares it gets its own before it decodes.
        if !isKnownUniquelyReferenced(&scratch) { scratch = DecodingScratch() }
        return withExtendedLifetime(scratch) { DeskMessage.decode(bytes, options: options, scratch: scratch) }
    }

    /// Decodes one envelope from JSON text.
    public mutating func decode(_ text: String) -> DeskMessage {
        var text = text
        return text.withUTF8 { decode($0) }
    }
}

/// The memory one decode works in: the envelope's tape, the data's tape, the data decoded from base64.
/// Used by one decode at a time.
final class DecodingScratch: @unchecked Sendable {
    let envelope = TapeStorage(capacity: 128)
    let payload = TapeStorage(capacity: 128)
    private var decoded = UnsafeMutablePointer<UInt8>.allocate(capacity: 1024)
    private var decodedCapacity = 1024

    /// Memory for at least `capacity` bytes of decoded data, valid until the next call.
    func bytes(capacity: Int) -> UnsafeMutablePointer<UInt8> {
        if capacity > decodedCapacity {
            decoded.deallocate()
            decodedCapacity = max(capacity, decodedCapacity * 2)
            decoded = .allocate(capacity: decodedCapacity)
        }
        return decoded
    }

    deinit { decoded.deallocate() }
}
