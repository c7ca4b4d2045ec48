/// What a response said besides its body — its status, its headers, where the link was asked for and where
/// the redirects ended — for ``RefusalCheck``.
public struct ResponseFacts: Sendable, Hashable {
    /// One response header, as received.
    public struct Header: Sendable, Hashable {
        /// Its name, in any case.
        public var name: String
        /// Its value.
        public var value: String

        /// The header `name: value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The HTTP status of the final response.
    public var status: Int
    /// The final response's headers (every `Set-Cookie` among them).
    public var headers: [Header]
    /// The URL the link asked for.
    public var requestedURL: String?
    /// The URL after redirects: the page's.
    public var finalURL: String?

    /// A response of `status` with `headers`, asked for at `requestedURL` and answered at `finalURL`.
    public init(status: Int = 200, headers: [Header] = [], requestedURL: String? = nil, finalURL: String? = nil) {
        self.status = status
        self.headers = headers
        self.requestedURL = requestedURL
        self.finalURL = finalURL
    }
}
