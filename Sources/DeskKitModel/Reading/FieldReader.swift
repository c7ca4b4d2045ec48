/// A JSON object on a tape. Its JSONPath (for problems) is worked out from the tape only when needed.
struct JSONFields {
    let tape: JSONTape
    let index: Int
    /// The path of the value at `base`: `$`, or `$.data` for the data inside an envelope.
    let root: StaticString
    /// The value paths start from: the tape's root, or an object inside it read as a document of its own
    /// (the message in a webhook's `payload`).
    var base = 0

    /// The value token of the last member named `key`.
    @inline(__always) subscript(key: StaticString) -> Int? { tape.member(index, key) }

    /// The path of this object.
    var path: String { tape.path(to: index, from: base, root: root.description) }

    func path(_ key: StaticString) -> String { JSONPath.member(path, key.description) }

    func child(_ index: Int) -> JSONFields { JSONFields(tape: tape, index: index, root: root, base: base) }
}

/// Reads typed members out of JSON objects and records a ``PayloadProblem`` for each one that is wrong.
/// One reader serves lenient decoding and strict validation, so the two can never disagree.
struct FieldReader {
    var problems: [PayloadProblem] = []

    var hasFatalProblem: Bool { problems.contains { $0.code.isFatal } }

    mutating func report(_ code: PayloadProblem.Code, _ path: String, _ message: String) {
        problems.append(PayloadProblem(code, at: path, message))
    }

    /// Reports keys written twice in one object, in `index` and everything below it.
    mutating func checkDuplicateKeys(_ tape: JSONTape, _ index: Int, at path: String) {
        switch tape.kind(index) {
        case .object:
            var keys: [String] = []
            var values: [Int] = []
            tape.forEachMember(index) { k, v in
                keys.append(tape.string(at: k))
                values.append(v)
            }
            for i in DuplicateKeys.secondAppearances(keys) {
                report(.duplicateKey, JSONPath.member(path, keys[i]), "the key \"\(keys[i])\" appears more than once")
            }
            for (key, v) in zip(keys, values) { checkDuplicateKeys(tape, v, at: JSONPath.member(path, key)) }
        case .array:
            for (i, e) in tape.elements(index).enumerated() { checkDuplicateKeys(tape, e, at: "\(path)[\(i)]") }
        default:
            break
        }
    }

    // Each typed reader comes in two forms: by a key of a ``JSONKeys`` enum (members found in one pass, what
    // the Desk decoders use) and by a literal key (a scan of the object, for the rarer formats).

    /// A string member; `null` and absence read as nil. `required` also rejects nil and "".
    mutating func string<K>(_ f: Fields<K>, _ key: K, required: Bool = false, known: StringTable? = nil) -> String? {
        string(f.object.tape, f[key], required: required, known: known) { f.path(key) }
    }

    mutating func string(_ o: JSONFields, _ key: StaticString, required: Bool = false) -> String? {
        string(o.tape, o[key], required: required, known: nil) { o.path(key) }
    }

    /// A 64-bit integer member, written as a number or as a string of digits.
    mutating func int64<K>(_ f: Fields<K>, _ key: K, required: Bool = false) -> Int64? {
        int64(f.object.tape, f[key], required: required) { f.path(key) }
    }

    mutating func int64(_ o: JSONFields, _ key: StaticString, required: Bool = false) -> Int64? {
        int64(o.tape, o[key], required: required) { o.path(key) }
    }

    /// A number member of any size, as a `Double`.
    mutating func double<K>(_ f: Fields<K>, _ key: K) -> Double? { double(f.object.tape, f[key]) { f.path(key) } }

    mutating func double(_ o: JSONFields, _ key: StaticString) -> Double? { double(o.tape, o[key]) { o.path(key) } }

    /// An object member.
    mutating func object<K>(_ f: Fields<K>, _ key: K, required: Bool = false) -> JSONFields? {
        object(f.object, f[key], required: required) { f.path(key) }
    }

    mutating func object(_ o: JSONFields, _ key: StaticString, required: Bool = false) -> JSONFields? {
        object(o, o[key], required: required) { o.path(key) }
    }

    /// Calls `body` with each object of an array member, in order; other elements are reported.
    mutating func forEachObject<K>(_ f: Fields<K>, _ key: K, _ body: (JSONFields, inout FieldReader) -> Void) {
        forEachObject(f.object, f[key], { f.path(key) }, body)
    }

    /// The objects of an array member; other elements are reported.
    mutating func objects(_ o: JSONFields, _ key: StaticString) -> [JSONFields] {
        var out: [JSONFields] = []
        forEachObject(o, o[key], { o.path(key) }) { object, _ in out.append(object) }
        return out
    }

    // MARK: The readers of a value token; `path` names the member, and is only worked out for a problem.

    private mutating func string(
        _ tape: JSONTape, _ v: Int?, required: Bool, known: StringTable?, _ path: () -> String
    ) -> String? {
        guard let v, tape.kind(v) != .null else {
            if required { report(.missingField, path(), "is required") }
            return nil
        }
        guard tape.kind(v) == .string else {
            report(.wrongType, path(), "expected a string, found \(tape.typeName(v))")
            return nil
        }
        let s = known.flatMap { tape.knownString(at: v, $0) } ?? tape.string(at: v)
        if required && s.isEmpty { report(.missingField, path(), "must not be empty") }
        return s
    }

    private mutating func int64(_ tape: JSONTape, _ v: Int?, required: Bool, _ path: () -> String) -> Int64? {
        guard let v, tape.kind(v) != .null else {
            if required { report(.missingField, path(), "is required") }
            return nil
        }
        switch tape.kind(v) {
        case .number:
            if let i = tape.integer(at: v) { return i }
            let text = tape.numberText(at: v)
            // A number with no fraction, however written (`1.0`, `1e3`), as JSON Schema's `integer` reads it. (Not
            // `Int64(exactly:)`, which calls libm's `trunc`: the client products link no libm.)
            if let d = Double(text), d >= -0x1p63, d < 0x1p63, Double(Int64(d)) == d { return Int64(d) }
            let integral = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
            report(
                integral ? .numberTooLarge : .wrongType, path(),
                integral
                    ? "\(text.prefix(40)) does not fit in 64 bits" : "expected an integer, found \(text.prefix(40))")
            return nil
        case .string:
            let s = tape.string(at: v)
            if let i = Int64(s.trimmingSpaces) { return i }
            report(.wrongType, path(), "expected an integer, found the string \"\(s.prefix(40))\"")
            return nil
        default:
            report(.wrongType, path(), "expected an integer, found \(tape.typeName(v))")
            return nil
        }
    }

    private mutating func double(_ tape: JSONTape, _ v: Int?, _ path: () -> String) -> Double? {
        guard let v, tape.kind(v) != .null else { return nil }
        // An integer below 2^53 is exactly a Double: no need for the text.
        if tape.kind(v) == .number, let i = tape.integer(at: v), i.magnitude < 1 << 53 { return Double(i) }
        guard tape.kind(v) == .number, let d = Double(tape.numberText(at: v)) else {
            report(.wrongType, path(), "expected a number, found \(tape.typeName(v))")
            return nil
        }
        return d
    }

    private mutating func object(_ o: JSONFields, _ v: Int?, required: Bool, _ path: () -> String) -> JSONFields? {
        guard let v, o.tape.kind(v) != .null else {
            if required { report(.missingField, path(), "is required") }
            return nil
        }
        guard o.tape.kind(v) == .object else {
            report(.wrongType, path(), "expected an object, found \(o.tape.typeName(v))")
            return nil
        }
        return o.child(v)
    }

    private mutating func forEachObject(
        _ o: JSONFields, _ v: Int?, _ path: () -> String, _ body: (JSONFields, inout FieldReader) -> Void
    ) {
        guard let v, o.tape.kind(v) != .null else { return }
        guard o.tape.kind(v) == .array else {
            report(.wrongType, path(), "expected an array, found \(o.tape.typeName(v))")
            return
        }
        var e = v + 1
        var position = 0
        while e < o.tape.next(v) {
            if o.tape.kind(e) == .object {
                body(o.child(e), &self)
            } else {
                report(.wrongType, "\(path())[\(position)]", "expected an object, found \(o.tape.typeName(e))")
            }
            e = o.tape.next(e)
            position += 1
        }
    }
}

extension String {
    /// Whether the UTF-8 of this string starts with that of `prefix` (byte for byte, no Unicode rules).
    func hasUTF8Prefix(_ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        if let r = utf8.withContiguousStorageIfAvailable({
            $0.count >= n && memEqual($0.baseAddress!, prefix.utf8Start, n)
        }) {
            return r
        }
        return utf8.starts(with: UnsafeBufferPointer(start: prefix.utf8Start, count: n))
    }

    /// The text without the white space (Unicode's White_Space characters) at either end.
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while let f = s.unicodeScalars.first, isWhiteSpace(f) { s.unicodeScalars.removeFirst() }
        while let l = s.unicodeScalars.last, isWhiteSpace(l) { s.unicodeScalars.removeLast() }
        return s
    }
}

/// Unicode's White_Space property, written out (the property's table would be the web module's largest).
private func isWhiteSpace(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x9...0xD, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
    default: false
    }
}
