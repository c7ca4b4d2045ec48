import Foundation
import NIOSSL
import PostgresNIO

/// A PostgreSQL database named by a URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]`.
///
/// `sslmode` is `disable`, `prefer` (the default, as libpq's) or `require`. The password never appears in
/// ``description``, so a location can be logged.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// Whether the connection uses TLS: a set that grows (libpq has more modes; CONTRIBUTING's rule), so
    /// compare with `==` and `switch` with a `default`.
    public struct TLSMode: Sendable, Hashable, CustomStringConvertible {
        enum Code: String, CaseIterable {
            case disable, prefer, require
        }
        /// The mode, for this module's exhaustive switches.
        let code: Code
        private init(_ code: Code) { self.code = code }

        /// The mode named `rawValue` as `sslmode` names it (`disable`, `prefer`, `require`), or nil for one
        /// DeskKit does not support.
        public init?(rawValue: String) {
            guard let code = Code(rawValue: rawValue) else { return nil }
            self.code = code
        }

        /// The mode's `sslmode` name.
        public var rawValue: String { code.rawValue }
        public var description: String { code.rawValue }
        /// Every mode this version supports.
        public static var allCases: [TLSMode] { Code.allCases.map(TLSMode.init) }

        /// Never: the connection is plain.
        public static let disable = TLSMode(.disable)
        /// TLS when the server offers it, plain otherwise (libpq's default).
        public static let prefer = TLSMode(.prefer)
        /// TLS, or no connection.
        public static let require = TLSMode(.require)
    }

    /// The server's host name or address.
    public var host: String
    /// The server's port (5432 by default).
    public var port: Int
    /// The user to connect as.
    public var username: String
    /// The user's password, if the server asks for one. Never logged.
    public var password: String?
    /// The database to use.
    public var database: String
    /// Whether the connection uses TLS.
    public var tls: TLSMode

    /// A location from its parts.
    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        tls: TLSMode = .prefer
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Reads a `postgres://` or `postgresql://` URL.
    public init(parsing text: String) throws(JobStoreError) {
        func bad(_ why: String) -> JobStoreError { JobStoreError(.badLocation, "PostgreSQL URL: \(why)") }
        guard let url = URLComponents(string: text), url.scheme == "postgres" || url.scheme == "postgresql" else {
            throw bad("not a postgres://USER@HOST/DATABASE URL")
        }
        guard let host = url.host, !host.isEmpty else { throw bad("no host") }
        guard let user = url.user, !user.isEmpty else { throw bad("no user (postgres://USER@\(host)/…)") }
        let database = String(url.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw bad("no database (…@\(host)/DATABASE)") }
        var tls = TLSMode.prefer
        for item in url.queryItems ?? [] {
            guard item.name == "sslmode" else { throw bad("unknown parameter \(item.name) (only sslmode is read)") }
            guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw bad("sslmode \(item.value ?? "") is not one of \(modes)")
            }
            tls = mode
        }
        self.init(
            host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: url.port ?? 5432,
            username: url.user?.removingPercentEncoding ?? user, password: url.password?.removingPercentEncoding,
            database: database.removingPercentEncoding ?? database, tls: tls)
    }

    public var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        let secret = password == nil ? "" : ":***"
        let mode = tls == .prefer ? "" : "?sslmode=\(tls.rawValue)"
        return "postgres://\(username)\(secret)@\(host):\(port)/\(database)\(mode)"
    }
}

extension PostgresLocation.TLSMode {
    var clientTLS: PostgresClient.Configuration.TLS {
        switch code {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }
}
