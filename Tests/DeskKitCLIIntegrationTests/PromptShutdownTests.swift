import DeskKitPageServer
import DeskKitTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `deskkit serve` ends within its shutdown grace (and at most 3 s more) whatever the pages it fetches do:
/// requests still fetching are answered 503 with `Retry-After`, jobs still running stay in the store.
@Suite("deskkit serve stops within its grace")
struct PromptShutdownTests {
    @Test func sigtermEndsTheProcessWithinTheGraceWhilePagesHang() async throws {
        try await HeavyTests.oneAtATime { try await stop() }
    }

    func stop() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "deskkit-stop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Pages are accepted and never answered; the fetch timeout (60 s) is far past the grace.
        let server = try await PageServer.start { path in
            path.hasPrefix("/v3/") ? .init(body: .bytes(Array("{}".utf8))) : .init(body: .silent)
        }
        try await server.scoped {
            let key = "prompt-shutdown-key-0123456789"
            let operatorKey = "prompt-shutdown-operator-0123456789"
            let grace = 2.0
            let (process, port) = try await CrashRecoveryTests.serve(
                [
                    "--store", "sqlite:state.sqlite", "--api-base", server.baseURL, "--api-keys", key,
                    "--operator-keys",
                    operatorKey, "--rate-limit",
                    "0", "--shutdown-grace", "\(Int(grace))", "--fetch-timeout", "60",
                ], in: directory)
            defer { if process.isRunning { process.terminate() } }
            let base = "http://127.0.0.1:\(port)"
            for id in 1...3 {
                let (status, _) = try await CrashRecoveryTests.sendWebhook(
                    id: id, link: "\(server.baseURL)/order/\(id)", to: port)
                #expect(status == 200)
            }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = 40
            configuration.timeoutIntervalForRequest = 60
            let session = URLSession(configuration: configuration)
            let answers = (0..<20).map { i in
                Task { () -> (Int, String?) in
                    var request = URLRequest(url: URL(string: "\(base)/v1/preview")!)
                    request.httpMethod = "POST"
                    request.httpBody = Data(#"{"url":"\#(server.baseURL)/page/\#(i)"}"#.utf8)
                    request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
                    guard let (_, response) = try? await session.data(for: request),
                        let http = response as? HTTPURLResponse
                    else { return (0, nil) }
                    return (http.statusCode, http.value(forHTTPHeaderField: "Retry-After"))
                }
            }
            // Fetches hang when the signal comes (four at once to the one host; the others wait their turn).
            try await until("four fetches hanging at the page server") { server.connectionsAccepted >= 4 }
            // And the sixteen others waiting for a place at the host: every preview is at the server (its figure of
            // requests not yet answered counts them, and this look at it).
            try await until("twenty previews at the server") {
                var look = URLRequest(url: URL(string: "\(base)/metrics")!)
                look.setValue("Bearer \(operatorKey)", forHTTPHeaderField: "Authorization")
                let (text, _) = try await session.data(for: look)
                let line = String(decoding: text, as: UTF8.self).split(separator: "\n")
                    .first { $0.hasPrefix("deskkit_http_requests_in_flight ") }
                return (line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0) >= 21
            }
            let signalled = ContinuousClock.now
            process.terminate()  // SIGTERM
            try await until("the server stopped after SIGTERM") { !process.isRunning }
            let took = ContinuousClock.now - signalled
            #expect(!process.isRunning)
            #expect(took <= .seconds(grace + 3), "stopped \(took) after SIGTERM, with a grace of \(grace) s")
            #expect(process.terminationStatus == 0)
            for answer in answers {
                let (status, retryAfter) = await answer.value
                #expect(status == 503 && retryAfter != nil, "\(status) \(retryAfter ?? "-")")
            }
            // The jobs cut short are in the store for the next start.
            let queued = try await CLI.run([
                "jobs", "list", "--store", "sqlite:\(directory.path)/state.sqlite", "--state", "queued",
            ])
            #expect(queued.lines.count == 3, "\(queued.stdout)\(queued.stderr)")
        }
    }
}
