import DeskKitModel

/// Writes malformed variants of valid payloads or envelopes, for QA teams to throw at their clients.
/// Deterministic: the same input, seed and count give the same variants.
public struct Mutator: Sendable {
    /// What was done to a variant.
    public enum Mutation: String, Sendable, CaseIterable {
        /// The text cut short at a random byte.
        case truncate
        /// A value replaced by one of another JSON type (a string for a number, an object for a string…).
        case typeFlip = "type_flip"
        /// `data` written as base64 with one character replaced by `!`, outside the alphabet.
        case base64Damage = "base64_damage"
        /// Bytes that are not UTF-8 (`E9 FF C3`) put inside the text.
        case wrongEncoding = "wrong_encoding"
        /// Numbers replaced by ones beyond 64 bits and beyond a double (`1e400`).
        case hugeNumber = "huge_number"
        /// Numbers replaced by -1, where ids and scores are positive.
        case negativeNumber = "negative_number"
        /// The payload wrapped in 1,000 to 10,000 arrays, far deeper than the parser's nesting limit.
        case deepNesting = "deep_nesting"
        /// A string replaced by a lone UTF-16 surrogate escape, `\ud800`.
        case surrogate
        /// A NUL byte put in the middle of the text, and a string replaced by `\u0000`.
        case nul
        /// `type` and `data` members of the wrong types put before the object's own.
        case duplicateKey = "duplicate_key"
        /// A `custom_type` of 10,000 characters, far over Sendbird's 128.
        case longCustomType = "long_custom_type"
        /// One member of the payload removed.
        case dropField = "drop_field"
        /// An envelope's `data` emptied.
        case emptyData = "empty_data"
    }

    /// One variant: its bytes (not always UTF-8) and the mutation applied.
    public struct Variant: Sendable, Hashable {
        /// What was done.
        public var mutation: Mutation
        /// Which input it was made from: its index in the inputs given.
        public var source: Int
        /// The variant's text, as bytes.
        public var bytes: [UInt8]
    }

    /// The seed of the random choices: the same seed gives the same variants.
    public let seed: UInt64

    /// A mutator whose choices follow `seed`.
    public init(seed: UInt64) { self.seed = seed }

    /// `count` variants of `inputs` (JSON texts of envelopes or payloads), cycling through inputs and mutations.
    public func variants(of inputs: [String], count: Int) -> [Variant] { Array(stream(of: inputs, count: count)) }

    /// The same variants as ``variants(of:count:)``, made one at a time as they are iterated: memory stays
    /// that of one variant, whatever the count. Empty when no input is JSON.
    public func stream(of inputs: [String], count: Int) -> Variants {
        Variants(mutator: self, inputs: inputs.compactMap { try? JSONValue.parse($0) }, count: count)
    }

    /// Variants made as they are iterated.
    public struct Variants: Sequence, Sendable {
        let mutator: Mutator
        let inputs: [JSONValue]
        let count: Int

        /// Whether there is a valid input to mutate.
        public var hasInputs: Bool { !inputs.isEmpty }

        public func makeIterator() -> Iterator { Iterator(variants: self, rng: SplitMix64(seed: mutator.seed)) }

        public struct Iterator: IteratorProtocol {
            let variants: Variants
            var rng: SplitMix64
            var made = 0

            public mutating func next() -> Variant? {
                let inputs = variants.inputs
                guard made < variants.count, !inputs.isEmpty else { return nil }
                made += 1
                let source = Int(rng.next() % UInt64(inputs.count))
                let mutation = Mutation.allCases[Int(rng.next() % UInt64(Mutation.allCases.count))]
                return Variant(
                    mutation: mutation, source: source,
                    bytes: variants.mutator.apply(mutation, to: inputs[source], rng: &rng))
            }
        }
    }

    func apply(_ mutation: Mutation, to value: JSONValue, rng: inout SplitMix64) -> [UInt8] {
        func text(_ v: JSONValue) -> [UInt8] { Array(v.jsonString.utf8) }
        let isEnvelope = value["data"] != nil || value["message_id"] != nil
        // The payload itself: the decoded `data` of an envelope, or the value.
        let payload = isEnvelope ? value["data"]?.stringValue.flatMap { try? JSONValue.parse($0) } : value
        func withPayload(_ p: JSONValue) -> JSONValue {
            guard isEnvelope, case .object(var o) = value else { return p }
            o["data"] = .string(p.jsonString)
            return .object(o)
        }
        switch mutation {
        case .truncate:
            let bytes = text(value)
            return Array(bytes.prefix(Int(rng.next() % UInt64(max(1, bytes.count)))))
        case .typeFlip:
            return text(withPayload(flip(payload ?? value, rng: &rng)))
        case .base64Damage:
            guard isEnvelope, case .object(var o) = value else {
                return Array(Base64.encode(text(value)).utf8.dropLast(2)) + [0x21]
            }
            var b64 = Array(Base64.encode(Array((payload ?? .null).jsonString.utf8)).utf8)
            if !b64.isEmpty { b64[Int(rng.next() % UInt64(b64.count))] = UInt8(ascii: "!") }
            o["data"] = .string(String(decoding: b64, as: UTF8.self))
            return text(.object(o))
        case .wrongEncoding:
            var bytes = text(value)
            let at = bytes.lastIndex(of: UInt8(ascii: "\"")) ?? bytes.count
            bytes.insert(contentsOf: [0xE9, 0xFF, 0xC3], at: max(0, at))
            return bytes
        case .hugeNumber:
            let mutated = withPayload(replaceNumbers(payload ?? value, with: .number("1e400"))).jsonString
            return Array(mutated.replacingNumbers(with: "99999999999999999999999999").utf8)
        case .negativeNumber:
            return text(withPayload(replaceNumbers(payload ?? value, with: .integer(-1))))
        case .deepNesting:
            let depth = 1_000 + Int(rng.next() % 9_000)
            return Array(
                (String(repeating: "[", count: depth) + (payload ?? value).jsonString
                    + String(repeating: "]", count: depth)).utf8)
        case .surrogate:
            return Array(value.jsonString.replacingFirstString(with: "\\ud800").utf8)
        case .nul:
            var bytes = text(value)
            bytes.insert(0, at: bytes.count / 2)
            return Array(String(decoding: bytes, as: UTF8.self).replacingFirstString(with: "\\u0000").utf8)
        case .duplicateKey:
            let bytes = text(withPayload(payload ?? value))
            guard bytes.first == UInt8(ascii: "{") else { return bytes }
            return Array(#"{"type": 7, "data": [], "#.utf8) + bytes.dropFirst()
        case .longCustomType:
            guard case .object(var o) = value else { return text(value) }
            o["custom_type"] = .string(String(repeating: "C", count: 10_000))
            return text(.object(o))
        case .dropField:
            guard case .object(var p) = payload ?? value, !p.isEmpty else { return text(value) }
            p.members.remove(at: Int(rng.next() % UInt64(p.count)))
            return text(withPayload(.object(p)))
        case .emptyData:
            guard isEnvelope, case .object(var o) = value else { return [] }
            o["data"] = ""
            return text(.object(o))
        }
    }

    private func flip(_ v: JSONValue, rng: inout SplitMix64) -> JSONValue {
        switch v {
        case .object(var o):
            guard !o.isEmpty else { return .array([]) }
            let i = Int(rng.next() % UInt64(o.count))
            o.members[i].value = flip(o.members[i].value, rng: &rng)
            return .object(o)
        case .array(let a): return a.isEmpty ? .string("[]") : .object(["0": a[0]])
        case .string(let s): return Int64(s).map(JSONValue.integer) ?? .bool(true)
        case .integer(let i): return .string(String(i))
        case .number(let n): return .string(n)
        case .bool(let b): return .string(b ? "true" : "false")
        case .null: return .integer(0)
        }
    }

    private func replaceNumbers(_ v: JSONValue, with replacement: JSONValue) -> JSONValue {
        switch v {
        case .integer, .number: return replacement
        case .array(let a): return .array(a.map { replaceNumbers($0, with: replacement) })
        case .object(var o):
            for i in o.indices { o.members[i].value = replaceNumbers(o.members[i].value, with: replacement) }
            return .object(o)
        default: return v
        }
    }
}

extension String {
    /// Every integer literal of a JSON text made huge (for envelopes whose numbers sit outside `data`).
    func replacingNumbers(with huge: String) -> String {
        var out = ""
        var inString = false
        var escaped = false
        var previous: Character = " "
        for c in self {
            if inString {
                if escaped {
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    inString = false
                }
                out.append(c)
            } else if c == "\"" {
                inString = true
                out.append(c)
            } else if c.isNumber, !previous.isNumber, previous != "e", previous != "." {
                out += huge
            } else if c.isNumber {
                // the rest of a replaced number is dropped
            } else {
                out.append(c)
            }
            previous = c
        }
        return out
    }

    /// The first string literal's content replaced by `escape` (a raw JSON escape sequence).
    func replacingFirstString(with escape: String) -> String {
        guard let open = firstIndex(of: "\""), let close = self[index(after: open)...].firstIndex(of: "\"") else {
            return self
        }
        return String(self[...open]) + escape + String(self[close...])
    }
}
