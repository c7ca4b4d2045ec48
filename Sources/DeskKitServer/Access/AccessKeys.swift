import Crypto

/// Who may do what: the three kinds of key a server accepts and the routes each opens.
///
/// | kind | setting | opens |
/// |---|---|---|
/// | client | `DESKKIT_API_KEYS` | `POST /v1/preview`, `POST /v1/decode`: what a chat backend needs |
/// | operator | `DESKKIT_OPERATOR_KEYS` | the console's routes — `GET /v1/queue`, `GET /v1/jobs`, the retries, `GET /v1/refusals`, `GET /v1/inspect`, `DELETE /v1/previews` — and `GET /metrics`; and what a client key opens |
/// | metrics | `DESKKIT_METRICS_KEYS` | `GET /metrics` only: a scraper's |
///
/// A key of another kind on a route is answered 403 with a problem that says which kind the route needs: a leaked
/// client key opens nothing of the operator's. A key is one kind only (``init(client:operator:metrics:)`` refuses a
/// key in two lists). The key's name (``APIKeys/Key/name``) is the request's identity (`RequestKey`).
package struct AccessKeys: Sendable, Hashable, CustomStringConvertible {
    /// What a key is for.
    package enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// A chat backend's: previews and decoding.
        case client
        /// The operator's: the queue, the jobs and their retries, refusals, inspections, forgetting cards, metrics.
        case `operator`
        /// A metrics scraper's: `/metrics`.
        case metrics

        package var description: String { rawValue }
    }

    /// The client keys (`DESKKIT_API_KEYS`).
    package let client: APIKeys
    /// The operator's keys (`DESKKIT_OPERATOR_KEYS`).
    package let `operator`: APIKeys
    /// The metrics scrapers' keys (`DESKKIT_METRICS_KEYS`).
    package let metrics: APIKeys

    /// No key of any kind: every keyed route answers 401.
    package static let none = AccessKeys(unchecked: .none, .none, .none)

    private init(unchecked client: APIKeys, _ operator: APIKeys, _ metrics: APIKeys) {
        self.client = client
        self.operator = `operator`
        self.metrics = metrics
    }

    /// The three lists.
    /// - Throws: when a key is in two of them: a key is one kind only.
    package init(client: APIKeys = .none, operator: APIKeys = .none, metrics: APIKeys = .none) throws(APIKeysError) {
        for (a, b, names) in [
            (client, `operator`, "a client key and an operator key"),
            (client, metrics, "a client key and a metrics key"),
            (`operator`, metrics, "an operator key and a metrics key"),
        ] where a.sharesAKey(with: b) {
            throw APIKeysError("a key is both \(names): give each kind keys of its own")
        }
        self.init(unchecked: client, `operator`, metrics)
    }

    /// The keys of `kind`.
    package func keys(of kind: Kind) -> APIKeys {
        switch kind {
        case .client: client
        case .operator: `operator`
        case .metrics: metrics
        }
    }

    /// The key `presented` is and its kind, or nil. Every key of every kind is compared, each in constant time.
    package func match(_ presented: some Collection<UInt8>) -> (key: APIKeys.Key, kind: Kind)? {
        let digest = SHA256.hash(data: Array(presented))
        var found: (APIKeys.Key, Kind)?
        for kind in Kind.allCases {
            if let key = keys(of: kind).match(digest) { found = (key, kind) }
        }
        return found
    }

    /// How many keys of each kind, never what they are.
    package var description: String {
        "\(client.count) client, \(`operator`.count) operator and \(metrics.count) metrics key\(metrics.count == 1 ? "" : "s")"
    }
}

/// Who made the request being answered: the name and kind of the key it presented — never the key — as the
/// key check found it, for the audit trail and the logs (as Hummingbird's authenticators put a user in the request's
/// context; a task-local, so that the routes run in any application's context). Nil outside a keyed route.
package struct RequestKey: Sendable, Hashable, CustomStringConvertible {
    /// The key's name (``APIKeys/Key/name``).
    package var name: String
    /// Its kind.
    package var kind: AccessKeys.Kind

    /// The request's key while a keyed route runs.
    @TaskLocal package static var current: RequestKey?

    /// A key named `name`, of `kind`.
    package init(name: String, kind: AccessKeys.Kind) {
        self.name = name
        self.kind = kind
    }

    package var description: String { "\(kind) key \"\(name)\"" }
}
