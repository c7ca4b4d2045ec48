import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A throwaway PostgreSQL cluster for the tests: `initdb` and `pg_ctl` in a temporary directory, listening
/// on 127.0.0.1 only, with trust authentication for the user `deskkit`.
///
/// PostgreSQL refuses to run as root, so when the tests do (CI) the cluster's commands run as the
/// `postgres` user (or `nobody`) through `runuser`. A watchdog process stops the cluster and removes its
/// directory when the test process ends, however it ends. The binaries are found on `PATH` or under
/// `/usr/lib/postgresql/*/bin` (Debian's `postgresql` package).
///
/// Every command it runs (`initdb`, `pg_ctl`, `psql`) is waited for on a thread of its own (``onThreadOfItsOwn``),
/// never on one of the cooperative pool's: the tests that make their databases at once would otherwise hold the
/// pool for as long as PostgreSQL takes to create them, and another test's deadline would pass meanwhile (seen in a
/// stressed fresh-clone run: seven stores that could not open within their 5 s).
public final class PostgresCluster: Sendable {
    public let port: Int
    public let directory: String
    private let bin: String
    private let user: String?

    /// One cluster for the whole test process, started on first use; each test makes its own database.
    public static func shared() async throws -> PostgresCluster {
        try await sharedCluster.value
    }

    private static let sharedCluster = Task { try await started() }

    /// Starts a new cluster (use ``shared()`` unless the test stops and starts the server).
    public static func started() async throws -> PostgresCluster {
        try await onThreadOfItsOwn { try PostgresCluster() }
    }

    private init() throws {
        bin = try Self.findBinaries()
        user = getuid() == 0 ? (Self.userExists("postgres") ? "postgres" : "nobody") : nil
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("deskkit-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if let user { try Self.run(["/bin/chown", user, directory]) }
        port = try Self.freePort()
        try run("\(bin)/initdb", "-D", "\(directory)/data", "-U", "deskkit", "-A", "trust", "-E", "UTF8", "--no-sync")
        try startServer()
        // The watchdog: stops the cluster and removes it when this process is gone.
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = [
            "-c",
            """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
            \(command(["\(bin)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "stop"])) >/dev/null 2>&1
            rm -rf '\(directory)'
            """,
        ]
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try watchdog.run()
    }

    /// `postgres://deskkit@127.0.0.1:PORT/DATABASE?sslmode=disable`.
    public func url(database: String) -> String {
        "postgres://deskkit@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Creates a database with a fresh name and returns its URL.
    public func makeDatabase() async throws -> String {
        let name = "t_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
        try await psql("postgres", "CREATE DATABASE \(name)")
        return url(database: name)
    }

    /// Runs SQL with `psql` and returns what it prints (unaligned, tuples only).
    @discardableResult
    public func psql(_ database: String, _ sql: String) async throws -> String {
        let arguments = [
            "\(bin)/psql", "-h", "127.0.0.1", "-p", "\(port)", "-U", "deskkit", "-d", database, "-X", "-A", "-t", "-v",
            "ON_ERROR_STOP=1", "-c", sql,
        ]
        return try await onThreadOfItsOwn { try Self.run(arguments) }
    }

    /// Starts the server (again) and waits until it accepts connections.
    public func start() async throws {
        try await onThreadOfItsOwn { try self.startServer() }
    }

    private func startServer() throws {
        // The server keeps the output of pg_ctl open: it goes nowhere, and the log says what went wrong.
        do {
            try run(
                "\(bin)/pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-t", "60", "-o",
                "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory) -c max_connections=300 -c fsync=on -c synchronous_commit=on",
                "start", capture: false)
        } catch {
            let log = (try? String(contentsOfFile: "\(directory)/log", encoding: .utf8)) ?? ""
            throw Failure(description: "\(error)\n\(log.suffix(2000))")
        }
    }

    /// Stops the server (fast shutdown: sessions are ended, the data is kept).
    public func stop() async throws {
        try await onThreadOfItsOwn {
            try self.run("\(self.bin)/pg_ctl", "-D", "\(self.directory)/data", "-m", "fast", "-w", "stop")
        }
    }

    // MARK: Helpers

    private func run(_ arguments: String..., capture: Bool = true) throws {
        try Self.run(user.map { ["/sbin/runuser", "-u", $0, "--"] + arguments } ?? arguments, capture: capture)
    }

    private func command(_ arguments: [String]) -> String {
        ((user.map { ["/sbin/runuser", "-u", $0, "--"] } ?? []) + arguments).map { "'\($0)'" }.joined(separator: " ")
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs a command and waits for it (posix_spawn and waitpid: no pipes a started server could keep
    /// open). Its output goes through a temporary file, or nowhere when `capture` is false.
    @discardableResult
    static func run(_ arguments: [String], capture: Bool = true) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "deskkit-pg-out-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, capture ? outputPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else: a server started here (postgres, through pg_ctl) would otherwise keep every descriptor
        // the test process had open at that moment — among them the ends of pipes that other tests are reading
        // a command's output from, or writing its input to, which then never see their end (seen: CLI tests
        // waiting for minutes on output of a process long gone, and a process waiting for input already closed).
        closeFrom3(&actions)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(arguments[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) failed (status \(status)): \(output)")
        }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Adds "close every descriptor from 3 on" to `actions`: glibc's `posix_spawn_file_actions_addclosefrom_np`
    /// (2.34 and later; looked up at run time, Swift's Glibc module does not declare it), else a close for each
    /// descriptor open now.
    static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd >= 3 { posix_spawn_file_actions_addclose(&actions, fd) }
    }

    static func findBinaries() throws -> String {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        where FileManager.default.isExecutableFile(atPath: "\(directory)/initdb")
            && FileManager.default.isExecutableFile(atPath: "\(directory)/pg_ctl")
        {
            // Debian links only some of them into PATH: use the directory the real initdb is in.
            let real = (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/initdb")).map {
                URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: directory)).deletingLastPathComponent().path
            }
            return real ?? directory
        }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init)
            .sorted()
        if let latest = versions.last, FileManager.default.isExecutableFile(atPath: "\(root)/\(latest)/bin/initdb") {
            return "\(root)/\(latest)/bin"
        }
        throw Failure(
            description: "PostgreSQL's initdb was not found: install the server (Debian: apt-get install postgresql)")
    }

    static func userExists(_ name: String) -> Bool { getpwnam(name) != nil }

    /// A port nothing listens on now (the kernel's pick for a socket bound to port 0).
    static func freePort() throws -> Int {
        let (fd, port) = try LoopbackSocket.open(listening: false)
        close(fd)
        return port
    }
}

/// A TCP socket on 127.0.0.1 and a port the kernel picked.
public enum LoopbackSocket {
    /// Binds (and, if `listening`, listens on) a new socket; the caller closes `fd`.
    public static func open(listening: Bool) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && (!listening || listen(fd, 1) == 0) && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw PostgresCluster.Failure(description: "cannot bind a loopback socket: errno \(errno)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
