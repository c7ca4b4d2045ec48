import Logging

/// Where `deskkit serve` and `deskkit jobs` keep jobs (`--store`, `DESKKIT_STORE`). A struct rather than an
/// enum, so that a kind of store added later breaks no `switch`.
public struct StoreLocation: Sendable, Hashable, CustomStringConvertible {
    private enum Place: Hashable {
        case memory
        case sqlite(path: String)
        case postgres(PostgresLocation)
    }
    private let place: Place
    private init(place: Place) { self.place = place }

    /// In process memory (``MemoryJobStore``): lost when the process ends (tests, one-off runs);
    /// `--hand-back` writes what is left at a graceful shutdown.
    public static let memory = StoreLocation(place: .memory)
    /// A SQLite file: survives crashes and restarts of one instance.
    public static func sqlite(path: String) -> StoreLocation { StoreLocation(place: .sqlite(path: path)) }
    /// A PostgreSQL database: shared by several instances behind a load balancer, with the preview cache.
    public static func postgres(_ location: PostgresLocation) -> StoreLocation {
        StoreLocation(place: .postgres(location))
    }

    /// The SQLite file's path, for a SQLite store.
    public var sqlitePath: String? {
        if case .sqlite(let path) = place { path } else { nil }
    }

    /// The database, for a PostgreSQL store.
    public var postgres: PostgresLocation? {
        if case .postgres(let location) = place { location } else { nil }
    }

    /// `deskkit-state.sqlite` in the working directory: what `deskkit serve` uses when not told.
    public static let `default` = StoreLocation.sqlite(path: "deskkit-state.sqlite")

    /// Reads `memory`, `sqlite:PATH` or a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL.
    public init(parsing text: String) throws(JobStoreError) {
        if text == "memory" {
            self = .memory
        } else if text.hasPrefix("sqlite:"), text.count > 7 {
            self = .sqlite(path: String(text.dropFirst(7)))
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(try PostgresLocation(parsing: text))
        } else {
            throw JobStoreError(
                .badLocation, "\"\(text.prefix(80))\" is not memory, sqlite:PATH or postgres://USER@HOST/DATABASE")
        }
    }

    public var description: String {
        switch place {
        case .memory: "memory"
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let location): location.description
        }
    }
}

extension StoreLocation {
    /// Opens (creating and migrating as needed) the store here; for ``memory``, a new empty
    /// ``MemoryJobStore`` of `memory`'s size. `timeout` bounds each operation of a PostgreSQL store and
    /// each connection to it (``PostgresJobStore/Options``); `pools` says who runs its connection pools.
    public func open(
        timeout: Duration = .seconds(5), memory: MemoryJobStore.Configuration = .init(),
        pools: PostgresJobStore.Pools = .runByTheStore, logger: Logger = Logger(label: "deskkit.store")
    ) async throws(JobStoreError) -> any JobStore {
        switch place {
        case .memory: return MemoryJobStore(configuration: memory)
        case .sqlite(let path): return try await SQLiteJobStore.open(path: path, logger: logger)
        case .postgres(let location):
            var options = PostgresJobStore.Options()
            options.operationTimeout = timeout
            options.connectTimeout = timeout
            return try await PostgresJobStore.open(location, options: options, pools: pools, logger: logger)
        }
    }
}
