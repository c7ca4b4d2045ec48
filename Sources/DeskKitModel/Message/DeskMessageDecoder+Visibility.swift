extension DeskMessageDecoder {
    /// Whether `audience` sees the message in `bytes`, without building the message: what a filter needs.
    ///
    /// The same answer as `decode(bytes).visibility(for: audience)`, and the same failure where `decode`
    /// gives a message malformed at `$` (text that is not JSON, or JSON that is not an object). It reads
    /// only the envelope's `custom_type` and `data`, and of `data` (raw or base64 JSON) only its `type`;
    /// nothing else is decoded or checked, and no string is built for a type DeskKit knows.
    public mutating func visibility(of bytes: Span<UInt8>, for audience: Audience) -> Result<Visibility, PayloadProblem>
    {
        bytes.withUnsafeBufferPointer { visibility(of: $0, for: audience) }
    }

    /// `visibility(of:for:)` on a buffer (`deskkit filter`'s lines).
    package mutating func visibility(of bytes: UnsafeBufferPointer<UInt8>, for audience: Audience) -> Result<
        Visibility, PayloadProblem
    > {
        let options = options
        return withScratch(reading: bytes) { Self.visibility(of: bytes, for: audience, options: options, scratch: $0) }
    }

    private static func visibility(
        of bytes: UnsafeBufferPointer<UInt8>, for audience: Audience, options: DecodingOptions, scratch: DecodingScratch
    ) -> Result<Visibility, PayloadProblem> {
        let tape: JSONTape
        switch DeskMessage.envelope(bytes, options: options, scratch: scratch) {
        case .success(let t): tape = t
        case .failure(let problem): return .failure(problem)
        }
        guard audience == .customer else { return .success(.visible) }
        let envelope = JSONFields(tape: tape, index: 0, root: "$").fields(VisibilityKey.self)
        if let c = envelope[.custom_type], tape.kind(c) == .string,
            let k = tape.match(c, in: DeskPayload.knownCustomTypes),
            DeskPayload.isSystemCustomType(DeskPayload.knownCustomTypes[k])
        {
            return .success(.hidden(.systemCustomType))
        }
        guard let d = envelope[.data], tape.kind(d) == .string else { return .success(.visible) }
        let json: UnsafeBufferPointer<UInt8>
        let text = tape.utf8(at: d)
        switch DataDecoder.locate(text, scratch: scratch).0 {
        case .json(let range): json = UnsafeBufferPointer(rebasing: text[range])
        case .base64JSON(let decoded, let range): json = UnsafeBufferPointer(rebasing: decoded[range])
        case .none, .text: return .success(.visible)
        }
        guard case .success(let data) = JSONTape.parse(json, limits: options.limits, into: scratch.payload),
            let t = JSONFields(tape: data, index: 0, root: "$.data").fields(DeskPayload.DataKey.self)[.type],
            data.kind(t) == .string
        else { return .success(.visible) }
        let isSystem =
            data.match(t, in: DeskPayload.knownDataTypes).map { DeskPayload.knownDataTypeIsSystem[$0] }
            ?? SystemMessage.Kind.isSystemType(data.string(at: t))
        return .success(isSystem ? .hidden(.systemDataType) : .visible)
    }

    /// The envelope members visibility depends on.
    private enum VisibilityKey: Int, JSONKeys {
        case custom_type, data
        static let table = StringTable(keys: Self.self, "custom_type data")
    }
}

extension DeskPayload {
    /// For each of ``knownDataTypes``, whether it is a system type customers do not see.
    static let knownDataTypeIsSystem = knownDataTypeFamilies.map { SystemMessage.Kind.isSystemType($0.type) }
}
