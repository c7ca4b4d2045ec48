/// A request of Pyrus to an integrator's authorization service: may this user use the chat?
public struct PyrusAuthRequest: Sendable, Hashable {
    /// `app_id`: the integrator's application.
    public var appID: String
    /// `user_id`: the user to authorize (at most 100 characters).
    public var userID: String
    /// `security_key` (at most 100 characters). Never printed or logged.
    public var securityKey: String

    /// The longest user id and security key Pyrus sends, in characters (Unicode code points).
    public static let maxFieldLength = 100

    /// Reads the POST body, JSON or `application/x-www-form-urlencoded` (by `contentType`, or by its first
    /// character when there is none). Nil with the problems when the request is malformed: answer 400.
    public static func decode(_ body: some Collection<UInt8>, contentType: String? = nil)
        -> (value: PyrusAuthRequest?, problems: [PayloadProblem])
    {
        let bytes = Array(body)
        let isForm =
            contentType.map { isFormContentType($0) }
            ?? !(bytes.first(where: { $0 > 0x20 }) == UInt8(ascii: "{"))
        var fields: [String: String] = [:]
        var problems: [PayloadProblem] = []
        if isForm {
            for pair in bytes.split(separator: UInt8(ascii: "&")) {
                let kv = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                guard let key = FormDecoding.decode(kv[0]) else { continue }
                if let value = kv.count > 1 ? FormDecoding.decode(kv[1]) : "" { fields[key] = fields[key] ?? value }
            }
        } else {
            let (parsed, jsonProblems) = OtherSystemsDecoding.decode(bytes, options: .strict) { o, reader in
                for key: StaticString in ["app_id", "user_id", "security_key"] {
                    if let v = reader.identifier(o, key) { fields[key.description] = v }
                }
                return true
            }
            if parsed == nil || jsonProblems.contains(where: { $0.code.isFatal }) { return (nil, jsonProblems) }
        }
        for key in ["app_id", "user_id", "security_key"] {
            guard let v = fields[key], !v.isEmpty else {
                problems.append(PayloadProblem(.missingField, at: "$.\(key)", "is required"))
                continue
            }
            if key != "app_id", v.unicodeScalars.count > maxFieldLength {
                problems.append(
                    PayloadProblem(
                        .tooLong, at: "$.\(key)",
                        "\(v.unicodeScalars.count) characters (code points), more than \(maxFieldLength)"))
            }
        }
        guard problems.isEmpty else { return (nil, problems) }
        return (
            PyrusAuthRequest(
                appID: fields["app_id"]!, userID: fields["user_id"]!, securityKey: fields["security_key"]!), []
        )
    }

    // Async: not in Embedded Swift, which has no concurrency runtime for WebAssembly (the web module).
    #if !hasFeature(Embedded)
        /// The HTTP status to answer: 400 for a malformed request, else 200 or 403 by `verify`.
        public static func respond(
            to body: some Collection<UInt8>, contentType: String?, verify: (PyrusAuthRequest) async -> Bool
        ) async -> (status: Int, problems: [PayloadProblem]) {
            let (request, problems) = decode(body, contentType: contentType)
            guard let request else { return (400, problems) }
            return (await verify(request) ? 200 : 403, [])
        }
    #endif

    /// Whether a `Content-Type` names a form (`application/x-www-form-urlencoded`, in any case, with parameters).
    /// Bytes compared, not `String.contains(String)`: that one is of _StringProcessing, macOS 13 and iOS 16 on.
    private static func isFormContentType(_ contentType: String) -> Bool {
        let type = Array(contentType.lowercased().utf8)
        let form = Array("x-www-form-urlencoded".utf8)
        return type.indices.contains { type[$0...].starts(with: form) }
    }
}
