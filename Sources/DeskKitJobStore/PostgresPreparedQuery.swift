import PostgresNIO

/// A statement the store runs for every job — its admission, its claim — prepared once on each connection and from
/// then on only bound and run. A statement sent as text is parsed and planned by PostgreSQL at every call: under
/// load the claim's planning was half as long as its run (`pg_stat_statements`; docs/BENCHMARKS.md).
///
/// Its text is its query's — a `PostgresQuery` built with any values, whose values are binds — so that a statement is
/// written once, as the other queries are: `static let sql = query(…any values…).sql`, and each call runs the query
/// built with its own values as this statement (`PostgresClient.execute(_:as:)`).
protocol PreparedQuery: PostgresPreparedStatement where Row == PostgresRow {
    /// The query's values, in the order of its placeholders.
    var binds: PostgresBindings { get }
    init(binds: PostgresBindings)
}

extension PreparedQuery {
    func makeBindings() -> PostgresBindings { binds }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

extension PostgresClient {
    /// Runs `query` as the prepared statement `statement`, whose text is `query`'s.
    func execute<Statement: PreparedQuery>(_ query: PostgresQuery, as statement: Statement.Type) async throws
        -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>
    {
        assert(query.sql == Statement.sql, "\(statement) runs another text")
        return try await execute(Statement(binds: query.binds))
    }
}

extension PostgresConnection {
    /// Runs `query` as the prepared statement `statement`, whose text is `query`'s.
    func execute<Statement: PreparedQuery>(_ query: PostgresQuery, as statement: Statement.Type, logger: Logger)
        async throws -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>
    {
        assert(query.sql == Statement.sql, "\(statement) runs another text")
        return try await execute(Statement(binds: query.binds), logger: logger)
    }
}
