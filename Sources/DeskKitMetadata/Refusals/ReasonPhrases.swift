import DeskKitFetchPolicy

/// HTTP's own reason phrases, a finite list that standards fix: RFC 9110's for the 4xx and 5xx codes, the other
/// codes of IANA's HTTP Status Code Registry (RFC 4918's WebDAV codes, RFC 6585's, RFC 8470's, RFC 7725's 451), and
/// the earlier names of the same codes that servers still print (RFC 2616's "Request-URI Too Long", RFC 7231's
/// "Payload Too Large"), as ``RefusalText/normalize(_:)`` leaves them. A page whose title or first heading is one
/// of them, with its code or alone ("429 Too Many Requests", "Service Unavailable"), is the server's answer about
/// the request, not the page a link points to — whatever language the site is in.
enum ReasonPhrases {
    /// Each phrase and the code it names.
    static let codes: [String: Int] = {
        var table: [String: Int] = [:]
        let phrases: [(Int, [String])] = [
            (400, ["bad request"]), (401, ["unauthorized", "authorization required"]), (402, ["payment required"]),
            (403, ["forbidden"]), (404, ["not found"]), (405, ["method not allowed"]), (406, ["not acceptable"]),
            (407, ["proxy authentication required"]), (408, ["request timeout", "request time-out"]),
            (409, ["conflict"]), (410, ["gone"]), (411, ["length required"]), (412, ["precondition failed"]),
            (413, ["content too large", "payload too large", "request entity too large"]),
            (414, ["uri too long", "request-uri too long", "request-uri too large"]),
            (415, ["unsupported media type"]), (416, ["range not satisfiable", "requested range not satisfiable"]),
            (417, ["expectation failed"]), (421, ["misdirected request"]),
            (422, ["unprocessable content", "unprocessable entity"]), (423, ["locked"]),
            (424, ["failed dependency"]), (425, ["too early"]), (426, ["upgrade required"]),
            (428, ["precondition required"]), (429, ["too many requests"]),
            (431, ["request header fields too large"]), (451, ["unavailable for legal reasons"]),
            (500, ["internal server error"]), (501, ["not implemented"]), (502, ["bad gateway"]),
            (503, ["service unavailable", "service temporarily unavailable"]),
            (504, ["gateway timeout", "gateway time-out"]), (505, ["http version not supported"]),
            (506, ["variant also negotiates"]), (507, ["insufficient storage"]), (508, ["loop detected"]),
            (510, ["not extended"]), (511, ["network authentication required"]),
        ]
        for (code, names) in phrases { for name in names { table[name] = code } }
        return table
    }()

    /// The code a title's part names: a reason phrase, with its status code or alone; nil for any other text.
    static func code(of part: (text: String, code: Bool)) -> Int? {
        codes[part.text] ?? codes[withoutPrefix(part.text)]
    }

    /// "error 503 service unavailable", "http error 429 - too many requests" as the phrase alone (a code at the
    /// title's start or end is taken off before: ``RefusalText/withoutCode(_:)``).
    private static func withoutPrefix(_ text: String) -> String {
        var t = Substring(text)
        for prefix in ["http error ", "error ", "http "] where t.hasPrefix(prefix) { t = t.dropFirst(prefix.count) }
        while let first = t.first, first.isNumber || " -.:".contains(first) { t = t.dropFirst() }
        return String(t)
    }

    /// Whether the phrase is one word ("Gone", "Forbidden", "Locked"): alone, without its code, such a title says
    /// little (a page called "Conflict"); with it, or on a page with nothing else, it is the server's answer.
    static func isOneWord(_ text: String) -> Bool { !text.contains(" ") }

    /// The refusal a page of that code is: a rate limit is a bot check (worth trying again later), an
    /// authentication a login wall, any other code an error page.
    static func kind(of code: Int) -> FetchError.Kind {
        switch code {
        case 429: .challenge
        case 401, 407, 511: .loginWall
        default: .errorPage
        }
    }
}
