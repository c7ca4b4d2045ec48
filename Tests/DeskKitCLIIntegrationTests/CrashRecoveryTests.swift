import Crypto
import DeskKitPageServer
import DeskKitTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `deskkit serve` killed with SIGKILL after answering webhooks and before updating their messages, on
/// either store: the next process on the same store updates every one of them, once, within 45 s of its
/// start — with the default lease (30 s, renewed while a job runs), a SQLite store taking back at once what
/// the dead process left running, PostgreSQL when the dead process's leases run out.
@Suite("deskkit serve survives kill -9")
struct CrashRecoveryTests {
    static let token = "crash-test-token"

    /// What a server logged: its standard error goes to a file (not a pipe, whose end a test would have to
    /// wait for: a descriptor another process inherited keeps it open, and a handler on Dispatch's queues can be
    /// late on a loaded machine). Once the process has exited, the file holds all it wrote.
    final class Log: Sendable {
        let path: String
        nonisolated(unsafe) private let process: Process

        init(path: String, process: Process) {
            self.path = path
            self.process = process
        }

        /// Everything written so far.
        var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        /// Whether the server has exited (then ``text`` is complete).
        var ended: Bool { !process.isRunning }
        /// The lines that are not about a message enriched.
        var trouble: String {
            text.split(separator: "\n").filter { !$0.contains("message enriched") }.suffix(40).joined(separator: "\n")
        }
    }

    /// Starts `deskkit serve` in `directory` and returns it with its port (read from the "listening" line).
    static func serve(_ arguments: [String], in directory: URL) async throws -> (Process, Int) {
        let (process, port, _) = try await serveLogged(arguments, in: directory)
        return (process, port)
    }

    /// ``serve(_:in:)`` with `environment` added to the token, and the server's log.
    static func serveLogged(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) async throws -> (Process, Int, Log) {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["serve", "--port", "0", "--allow-private", "--log-level", "info"] + arguments
        process.environment = ["SENDBIRD_API_TOKEN": token].merging(environment) { $1 }
        process.currentDirectoryURL = directory
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "deskkit-serve-\(UUID().uuidString).log"
        )
        .path
        FileManager.default.createFile(atPath: path, contents: nil)
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? err.close() }  // the child has its own copy
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let log = Log(path: path, process: process)
        do {
            let port = try await until("deskkit serve's listening line") { () -> Int? in
                let text = log.text
                let line = text.split(separator: "\n").first { $0.contains("listening") && $0.contains("address=") }
                if line == nil, log.ended {
                    throw CocoaError(
                        .fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: "deskkit serve exited: \(text)"])
                }
                return line?.split(separator: " ").first { $0.hasPrefix("address=") }?.split(separator: ":").last
                    .flatMap { Int($0) }
            }
            return (process, port, log)
        } catch {
            process.terminate()
            throw error
        }
    }

    static func webhook(id: Int, link: String) -> (Data, String) {
        let body = Data(
            #"{"category":"group_channel:message_send","channel":{"channel_url":"ch"},"type":"MESG","payload":{"message":"see \#(link)","message_id":\#(id),"type":"MESG"}}"#
                .utf8)
        let signature = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(token.utf8)))
        return (body, signature.map { String(format: "%02x", $0) }.joined())
    }

    /// Posts ``webhook(id:link:)`` to the server on `port`; its status and body.
    static func sendWebhook(id: Int, link: String, to port: Int) async throws -> (Int, String) {
        let (body, signature) = webhook(id: id, link: link)
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/webhooks/sendbird")!)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue(signature, forHTTPHeaderField: "x-sendbird-signature")
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test(arguments: ["sqlite", "postgres"])
    func everyAcceptedWebhookIsUpdatedAfterACrash(_ backend: String) async throws {
        try await HeavyTests.oneAtATime { try await crash(backend) }
    }

    func crash(_ backend: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "deskkit-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Pages hang until the crash (so no message is updated before it); the fake Platform API counts PUTs.
        let pagesAnswer = Atomic<Bool>(false)
        let puts = Mutex<[String: Int]>([:])
        let server = try await PageServer.start { path in
            if path.hasPrefix("/v3/") {
                puts.withLock { $0[path, default: 0] += 1 }
                return .init(status: 200, body: .bytes(Array("{}".utf8)))
            }
            return pagesAnswer.load(ordering: .relaxed) ? .html("<title>Order \(path)</title>") : .init(body: .silent)
        }
        try await server.scoped {
            let n = 40
            let store =
                backend == "postgres" ? try await PostgresCluster.shared().makeDatabase() : "sqlite:state.sqlite"
            let arguments = ["--store", store, "--api-base", server.baseURL, "--workers", "8"]

            // The first process's fetches must not end before the kill (a fetch that times out finishes its job
            // without a preview); on a loaded machine the 40 webhooks can take longer than the default 10 s.
            let (first, port) = try await Self.serve(arguments + ["--fetch-timeout", "600"], in: directory)
            for id in 1...n {
                let (status, answer) = try await Self.sendWebhook(
                    id: id, link: "\(server.baseURL)/order/\(id)", to: port)
                #expect(status == 200)
                #expect(answer.contains("queued"))
            }
            kill(first.processIdentifier, SIGKILL)
            await CLI.exit(of: first)
            #expect(first.terminationReason == .uncaughtSignal)
            #expect(puts.withLock { $0.isEmpty }, "no message was updated before the crash")

            pagesAnswer.store(true, ordering: .relaxed)
            let restarted = ContinuousClock.now
            let (second, _, log) = try await Self.serveLogged(arguments, in: directory)
            defer { if second.isRunning { second.terminate() } }
            // The issue's bound: every accepted message updated within 45 s of the restart.
            do {
                try await until("every accepted message updated", within: restarted + .seconds(45) - .now) {
                    puts.withLock { $0.count } >= n
                }
            } catch {
                Issue.record("\(error) (\(puts.withLock { $0.count }) of \(n)); the log:\n\(log.trouble)")
            }
            let updated = puts.withLock { $0 }
            #expect(updated.values.allSatisfy { $0 == 1 }, "none twice: none was in flight at the PUT")
            second.terminate()
            await CLI.exit(of: second)
            #expect(second.terminationStatus == 0)
            let list = try await CLI.run([
                "jobs", "list", "--store", backend == "postgres" ? store : "sqlite:\(directory.path)/state.sqlite",
                "--state", "done", "--limit", "1000",
            ])
            #expect(list.stdout.split(separator: "\n").count == n)
        }
    }
}
