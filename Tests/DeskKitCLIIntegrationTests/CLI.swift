import DeskKitTestSupport
import Foundation
import Testing

/// Runs the `deskkit` executable built next to the test bundle.
enum CLI {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var executable: URL {
        var dir = Bundle.main.bundleURL
        if dir.pathExtension == "xctest" { dir.deleteLastPathComponent() }
        let candidate = dir.appendingPathComponent("deskkit")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return repositoryRoot.appendingPathComponent(".build/debug/deskkit")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] {
            stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        }
    }

    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil, directory: URL? = nil
    ) async throws -> Result {
        try await run(arguments, bytes: stdin.map { Data($0.utf8) }, environment: environment, directory: directory)
    }

    /// Runs deskkit in `directory`, by default the repository's root, and waits for it on a thread of its own:
    /// the test's task is suspended meanwhile, so the cooperative pool's threads (two on a 2-core machine) are
    /// free for the other suites.
    static func run(
        _ arguments: [String], bytes stdin: Data?, environment: [String: String]? = nil, directory: URL? = nil
    ) async throws -> Result {
        try await onThreadOfItsOwn {
            try runWaiting(arguments, bytes: stdin, environment: environment, directory: directory)
        }
    }

    /// Waits until `process` has exited, on a thread of its own (as ``run(_:bytes:environment:directory:)``). A
    /// test cancelled meanwhile (a heavy test past its limit) kills the process, so that a child that does not
    /// end when asked fails its test instead of hanging the suite.
    static func exit(of process: Process) async {
        nonisolated(unsafe) let process = process
        await withTaskCancellationHandler {
            _ = try? await onThreadOfItsOwn { process.waitUntilExit() }
        } onCancel: {
            // Never 0 (not launched): kill(0, …) would signal the whole process group.
            if process.processIdentifier > 0 { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Reads `pipe` to its end (its writers all gone) on a thread of its own.
    static func readToEnd(_ pipe: Pipe) async -> Data {
        let handle = pipe.fileHandleForReading
        return (try? await onThreadOfItsOwn { readAll(handle) }) ?? Data()
    }

    /// What `pipe` holds now, or waits for, on a thread of its own (empty at its end).
    static func readAvailable(_ pipe: Pipe) async -> Data {
        let handle = pipe.fileHandleForReading
        return (try? await onThreadOfItsOwn { handle.availableData }) ?? Data()
    }

    private static func runWaiting(
        _ arguments: [String], bytes stdin: Data?, environment: [String: String]?, directory: URL?
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = directory ?? repositoryRoot
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Write standard input and read standard error on threads of their own, so that no pipe fills up
        // while another is waited on — not on Dispatch's global queue, whose few threads the tests running at
        // once may all hold blocked. (The pipes' ends must also not leak into other processes: a PostgreSQL
        // cluster that a test started while they were open kept them, and the process waited for input for
        // ever; `PostgresCluster.run` closes them in what it starts.)
        let writer = input.fileHandleForWriting
        let wrote = Self.startThread {
            if let stdin { writer.write(stdin) }
            try? writer.close()
        }
        nonisolated(unsafe) var e = Data()
        let readErr = Self.startThread { e = Self.readAll(err.fileHandleForReading) }
        let o = Self.readAll(out.fileHandleForReading)
        wrote.wait()
        readErr.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    /// Everything until the end of the pipe. Foundation's `readDataToEndOfFile` traps when a signal interrupts
    /// its read (`EINTR`, seen under the full suite's load); this reads again.
    private static func readAll(_ handle: FileHandle) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if n > 0 {
                data.append(contentsOf: buffer[..<n])
            } else if n == 0 || errno != EINTR {
                return data
            }
        }
    }

    /// Runs `body` on a new thread; the semaphore is signalled when it has returned.
    private static func startThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done
    }

    static func json(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}
