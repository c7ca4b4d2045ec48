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
    /// How messages are read: ``DecodingOptions/lenient`` by default.
    public var options: DecodingOptions
    /// The most working memory kept from one message to the next, in bytes (default 1 MiB). The memory grows to
    /// fit the message at hand; after a message that needed more than this, it is let go.
    public var maxRetainedBytes: Int
    private var scratch: DecodingScratch

    /// A decoder that reads with `options` and lets go of working memory beyond `maxRetainedBytes` (1 MiB by default) after the message that needed it.
    public init(options: DecodingOptions = .lenient, maxRetainedBytes: Int = 1 << 20) {
        self.options = options
        self.maxRetainedBytes = maxRetainedBytes
        scratch = DecodingScratch()
    }

    /// Decodes one envelope from UTF-8 bytes. Lenient by default: never throws; text that is not a
    /// message gives a ``DeskContent/malformed(_:)`` message saying where it breaks.
    public mutating func decode(_ bytes: Span<UInt8>) -> DeskMessage {
        bytes.withUnsafeBufferPointer { decode($0) }
    }

    /// `decode(_:)` on a buffer (the command's and the server's lines).
    package mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> DeskMessage {
        let options = options
        return withScratch(reading: bytes) { DeskMessage.decode(bytes, options: options, scratch: $0) }
    }

    /// Runs `body` in the decoder's working memory, to read `bytes`.
    mutating func withScratch<T>(reading bytes: UnsafeBufferPointer<UInt8>, _ body: (DecodingScratch) -> T) -> T {
        // The working memory is only ever used by one decode at a time: a copy of this decoder that
        // shares it gets its own before it decodes.
        if !isKnownUniquelyReferenced(&scratch) { scratch = DecodingScratch() }
        let result = withExtendedLifetime(scratch) { body(scratch) }
        // A message grows the memory by at most ~38 bytes a byte (tokens, unescaped text, decoded base64, for
        // two tapes), so one under 1/64 of the limit cannot pass it: only bigger ones need the look.
        if bytes.count > maxRetainedBytes / 64, scratch.bytes > maxRetainedBytes { scratch = DecodingScratch() }
        return result
    }

    /// The working memory kept now, in bytes.
    var retainedBytes: Int { scratch.bytes }

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

    /// The memory held, in bytes.
    var bytes: Int { envelope.bytes + payload.bytes + decodedCapacity }

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
