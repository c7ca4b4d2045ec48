/// Reads typed members out of JSON objects and records a ``PayloadProblem`` for each one that is wrong.
/// One reader serves lenient decoding and strict validation, so the two can never disagree.
struct FieldReader {
    var problems: [PayloadProblem] = []

    var hasFatalProblem: Bool { problems.contains { $0.code.isFatal } }

    mutating func report(_ code: PayloadProblem.Code, _ path: String, _ message: String) {
        problems.append(PayloadProblem(code, at: path, message))
    }

    /// Reports keys written twice in `object` (and recursively below it).
    mutating func checkDuplicateKeys(_ value: JSONValue, at path: String) {
        switch value {
        case .object(let o):
            if o.count > 1 {
                for key in o.duplicateKeys {
                    report(.duplicateKey, JSONPath.member(path, key), "the key \"\(key)\" appears more than once")
                }
            }
            for m in o.members { checkDuplicateKeys(m.value, at: JSONPath.member(path, m.key)) }
        case .array(let a):
            for (i, e) in a.enumerated() { checkDuplicateKeys(e, at: "\(path)[\(i)]") }
        default:
            break
        }
    }

    /// A string member; `null` and absence read as nil. `required` also rejects nil and "".
    mutating func string(_ o: JSONObject, _ key: String, at path: String, required: Bool = false) -> String? {
        func p() -> String { JSONPath.member(path, key) }
        switch o[key] {
        case .string(let s)?:
            if required && s.isEmpty { report(.missingField, p(), "must not be empty") }
            return s
        case nil, .null?:
            if required { report(.missingField, p(), "is required") }
            return nil
        case let v?:
            report(.wrongType, p(), "expected a string, found \(v.typeName)")
            return nil
        }
    }

    /// A 64-bit integer member, written as a number or as a string of digits.
    mutating func int64(_ o: JSONObject, _ key: String, at path: String, required: Bool = false) -> Int64? {
        func p() -> String { JSONPath.member(path, key) }
        switch o[key] {
        case .integer(let i)?:
            return i
        case .number(let s)?:
            if let d = Double(s), d > -9.2e18, d < 9.2e18, Double(Int64(d)) == d { return Int64(d) }
            let integral = !s.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
            report(
                integral ? .numberTooLarge : .wrongType, p(),
                integral ? "\(s) does not fit in 64 bits" : "expected an integer, found \(s)")
            return nil
        case .string(let s)?:
            if let i = Int64(s.trimmingSpaces) { return i }
            report(.wrongType, p(), "expected an integer, found the string \"\(s.prefix(40))\"")
            return nil
        case nil, .null?:
            if required { report(.missingField, p(), "is required") }
            return nil
        case let v?:
            report(.wrongType, p(), "expected an integer, found \(v.typeName)")
            return nil
        }
    }

    /// A number member of any size, as a `Double`.
    mutating func double(_ o: JSONObject, _ key: String, at path: String) -> Double? {
        switch o[key] {
        case nil, .null?: return nil
        case let v?:
            if let d = v.doubleValue { return d }
            report(.wrongType, JSONPath.member(path, key), "expected a number, found \(v.typeName)")
            return nil
        }
    }

    /// An object member.
    mutating func object(_ o: JSONObject, _ key: String, at path: String, required: Bool = false) -> JSONObject? {
        func p() -> String { JSONPath.member(path, key) }
        switch o[key] {
        case .object(let obj)?: return obj
        case nil, .null?:
            if required { report(.missingField, p(), "is required") }
            return nil
        case let v?:
            report(.wrongType, p(), "expected an object, found \(v.typeName)")
            return nil
        }
    }

    /// An array member.
    mutating func array(_ o: JSONObject, _ key: String, at path: String) -> [JSONValue]? {
        switch o[key] {
        case .array(let a)?: return a
        case nil, .null?: return nil
        case let v?:
            report(.wrongType, JSONPath.member(path, key), "expected an array, found \(v.typeName)")
            return nil
        }
    }
}

/// JSONPath text for problems: `$.body.state`, `$.results[2].url`, `$['odd key']`.
enum JSONPath {
    static func member(_ path: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.utf8.allSatisfy { c in
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F
        }
        if plain { return path + "." + key }
        let escaped = key.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'")
        return path + "['" + escaped + "']"
    }
}

extension String {
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return s
    }

    func replacingAll(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
