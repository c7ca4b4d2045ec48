import DeskKitModel
import Synchronization

enum MessageChecks {
    /// One decoder kept across inputs, so that its working memory holds whatever earlier inputs left in it.
    private static let reused = Mutex(DeskMessageDecoder())

    /// `data` read on its own: lenient reading of bytes and of the same text agree; a clean rich payload
    /// survives encoding and decoding in both forms; every problem has a path; JSON that parses is
    /// written and parsed back to the same value.
    static func messageData(_ bytes: UnsafeBufferPointer<UInt8>) throws(InvariantViolation) {
        try jsonRoundTrip(bytes)
        let decoded = DeskPayload.decode(bytes: bytes)
        if let text = String(validating: bytes, as: UTF8.self) {
            let fromText = DeskPayload.decode(text)
            try require(fromText == decoded, "decoding bytes and decoding the same text differ for \(excerpt(text))")
            for customType in [DeskPayload.richMessageCustomType, DeskPayload.adminMessageCustomType] {
                _ = DeskPayload.decode(text, customType: customType)
            }
        }
        let strict = DeskPayload.decode(bytes: bytes, expectsPayload: true, options: .strict)
        try paths(strict.problems)
        if case .malformed(let m) = decoded.content {
            try require(m.reason.code.isFatal, "malformed for a problem that is not fatal: \(m.reason)")
        }
        try richRoundTrip(decoded)
        try safeURLs(decoded, strict: strict)
    }

    /// A preview hands renderers a URL only when it is http(s) with a host and nothing a browser would
    /// strip or reinterpret; strict validation reports `unsafe_url` exactly for the URLs it withholds.
    static func safeURLs(_ decoded: DeskPayload.Decoded, strict: DeskPayload.Decoded) throws(InvariantViolation) {
        guard case .urlPreview(let p) = decoded.content else { return }
        for (value, safe, key) in [(Optional(p.url), p.safeURL, "url"), (p.image, p.safeImageURL, "image")] {
            guard let value else { continue }
            if let safe {
                let lower = safe.lowercased()
                try require(
                    (lower.hasPrefix("http://") || lower.hasPrefix("https://"))
                        && !safe.utf8.contains { $0 <= 0x20 || $0 == 0x7F }
                        && safe == value,
                    "an unsafe \(key) was handed to renderers: \(excerpt(safe))")
            }
            let reported = strict.problems.contains { $0.code == .unsafeURL && $0.path.hasSuffix(".body.\(key)") }
            try require(
                reported == (safe == nil), "unsafe_url for \(key) is \(reported) but safe\(key) is \(safe ?? "nil")")
        }
    }

    /// Whole envelopes: the byte, text and JSON-value initialisers and a decoder reused across inputs agree;
    /// agents see everything and customers everything but system messages; malformed data is kept whole; the
    /// summary line is JSON that reads back as written.
    static func envelope(_ bytes: UnsafeBufferPointer<UInt8>) throws(InvariantViolation) {
        let message = DeskMessage(jsonBytes: bytes)
        let fromReused = reused.withLock { $0.decode(bytes) }
        try require(fromReused == message, "a reused DeskMessageDecoder differs from a fresh decode")
        if let text = String(validating: bytes, as: UTF8.self) {
            try require(
                DeskMessage(json: text) == message, "DeskMessage(json: String) differs from DeskMessage(jsonBytes:)")
        }
        if case .success(let value) = JSONValue.parseResult(bytes) {
            let fromValue = DeskMessage(json: value)
            // Malformed content keeps the text it was given, which a JSONValue writes compactly.
            let same =
                message.content.kind == .malformed
                ? fromValue.content.kind == .malformed : fromValue.content == message.content
            try require(
                same && fromValue.messageID == message.messageID && fromValue.customType == message.customType,
                "DeskMessage(json: JSONValue) reads \(fromValue.content), bytes read \(message.content)")
        }
        try require(message.isVisible(to: .agent), "a message hidden from the agent")
        let system =
            DeskPayload.isSystemCustomType(message.customType)
            || message.dataType.map(SystemMessage.Kind.isSystemType) == true
        try require(message.isVisible(to: .customer) == !system, "customer visibility disagrees with the system rule")
        if case .malformed(let m) = message.content, let data = message.data {
            try require(m.data == data, "malformed data not kept whole")
        }
        var writer = JSONWriter()
        writer.write(message.summaryJSON)
        let summary = writer.bytes
        let reread = summary.withUnsafeBufferPointer { JSONValue.parseResult($0) }
        try require((try? reread.get()) == message.summaryJSON, "the summary line does not read back")
        try paths(DeskMessage(jsonBytes: bytes, options: .strict).problems)
    }

    /// One line validated strictly: never crashes, every problem has a path and a message.
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>) throws(InvariantViolation) {
        let problems = DeskValidation.problems(inLine: bytes)
        try paths(problems)
        for p in problems { try require(!p.message.isEmpty, "a problem without a message at \(p.path)") }
    }

    static func paths(_ problems: [PayloadProblem]) throws(InvariantViolation) {
        for p in problems { try require(p.path.hasPrefix("$"), "a problem whose path is not a JSON path: \(p)") }
    }

    /// JSON that parses is written and parsed back to the same value.
    static func jsonRoundTrip(_ bytes: UnsafeBufferPointer<UInt8>) throws(InvariantViolation) {
        guard case .success(let value) = JSONValue.parseResult(bytes) else { return }
        var writer = JSONWriter()
        writer.write(value)
        let again = writer.withUnsafeBufferPointer { JSONValue.parseResult($0) }
        try require((try? again.get()) == value, "JSON written from a parsed value does not parse back to it")
    }

    /// A rich payload decoded without problems encodes (JSON and base64) and decodes to the same value.
    static func richRoundTrip(_ decoded: DeskPayload.Decoded) throws(InvariantViolation) {
        guard decoded.problems.isEmpty else { return }
        let rich: RichPayload
        switch decoded.content {
        case .urlPreview(let p): rich = .urlPreview(p)
        case .closureInquiry(let c): rich = .closureInquiry(c)
        case .customerSatisfaction(let c): rich = .customerSatisfaction(c)
        default: return
        }
        for form in DataForm.allCases {
            let data = DeskPayload.encode(rich, as: form)
            let again = DeskPayload.decode(data, customType: DeskPayload.richMessageCustomType)
            try require(
                again.content == decoded.content,
                "\(rich.dataType) does not survive encoding as \(form): \(excerpt(data))")
        }
    }
}
