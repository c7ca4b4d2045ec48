/// One entry point of DeskKit, with the properties it must keep on any input. The libFuzzer targets in
/// `Fuzz/` and the corpus replay in `swift test` run the same checks, so a finding stays fixed.
public enum FuzzTarget: String, Sendable, CaseIterable {
    /// Message `data` (raw or base64 JSON) read on its own, lenient and strict; the JSON parser and writer.
    case messageData = "message-data"
    /// Whole message envelopes, by every initialiser, with visibility and the summary line.
    case envelope
    /// Strict validation of one line, as `deskkit validate` does it.
    case validate
    /// Link detection in chat text.
    case links
    /// Page metadata extraction with libxml2, one-shot and in random chunks.
    case extract
    /// Host and URL parsing and the SSRF address check.
    case address
    /// Webhook and push bodies: Pyrus replies and authorization requests, LiveTex pushes.
    case webhooks

    /// Runs the target's checks on `input`; throws the first property that does not hold.
    public func check(_ input: Span<UInt8>) throws(InvariantViolation) {
        try input.withUnsafeBufferPointer { bytes throws(InvariantViolation) in try check(buffer: bytes) }
    }

    private func check(buffer bytes: UnsafeBufferPointer<UInt8>) throws(InvariantViolation) {
        switch self {
        case .messageData: try MessageChecks.messageData(bytes)
        case .envelope: try MessageChecks.envelope(bytes)
        case .validate: try MessageChecks.validate(bytes)
        case .links: try LinkChecks.links(bytes)
        case .extract: try ExtractChecks.extract(bytes)
        case .address: try AddressChecks.address(bytes)
        case .webhooks: try WebhookChecks.webhooks(bytes)
        }
    }

    /// Runs the checks on `bytes`.
    public func check(_ bytes: [UInt8]) throws(InvariantViolation) {
        try check(bytes.span)
    }

    /// The entry for a libFuzzer target: runs the checks on the input and stops the process with the
    /// violated property, so libFuzzer saves the input.
    public func fuzz(_ input: Span<UInt8>) -> Int32 {
        do {
            try check(input)
        } catch {
            fatalError("\(rawValue): \(error)")
        }
        return 0
    }
}

/// A property that did not hold.
public struct InvariantViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// What should have held, and what was seen instead.
    public var message: String

    /// A violation described by `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Throws `message` unless `condition` holds.
@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(InvariantViolation) {
    if !condition { throw InvariantViolation(message()) }
}

/// Bytes as text for messages: the first 200 characters, escaped.
func excerpt(_ s: some StringProtocol) -> String {
    let cut = String(s.prefix(200))
    return cut.debugDescription + (cut.count < s.count ? "…" : "")
}
