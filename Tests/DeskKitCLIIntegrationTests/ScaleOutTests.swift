import DeskKitPageServer
import DeskKitTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Three `deskkit serve` processes behind an imagined load balancer, sharing one PostgreSQL database:
/// every message is delivered twice to different instances, one instance is killed with SIGKILL halfway
/// and started again. Exactly one job per message, every message updated, and each page fetched once.
@Suite("deskkit serve scales out on PostgreSQL")
struct ScaleOutTests {
    static let messages = 10_000
    static let pages = 200
    static let workers = 8

    /// One delivery: 200 with the job's status ("queued" or "duplicate"), or nil when the instance is gone.
    static func deliver(_ id: Int, to port: Int, link: String, session: URLSession) async -> String? {
        let (body, signature) = CrashRecoveryTests.webhook(id: id, link: link)
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/webhooks/sendbird")!)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue(signature, forHTTPHeaderField: "x-sendbird-signature")
        guard let (data, response) = try? await session.data(for: request),
            (response as? HTTPURLResponse)?.statusCode == 200
        else {
            return nil
        }
        let text = String(decoding: data, as: UTF8.self)
        return text.contains("duplicate") ? "duplicate" : text.contains("queued") ? "queued" : text
    }

    @Test func threeInstancesOneDatabaseOneKilled() async throws {
        try await HeavyTests.oneAtATime { try await scaleOut() }
    }

    func scaleOut() async throws {
        let database = try await PostgresCluster.shared().makeDatabase()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "deskkit-scale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fetches = Mutex<[String: Int]>([:])
        let puts = Mutex<[String: Int]>([:])
        // When each PUT came, to say which repeats were not at the kill when there are too many.
        let putTimes = Mutex<[String: [ContinuousClock.Instant]]>([:])
        let killed = Atomic(false)
        let server = try await PageServer.start { path in
            if path.hasPrefix("/v3/") {
                // A slow API (~100 ms a PUT) until the kill: the workers fall behind the deliveries, so the instance
                // killed has jobs waiting and PUTs in flight, however fast the machine. After it, a fast one: the
                // rest is about every message being updated once, not about how long 10,000 slow PUTs take.
                puts.withLock { $0[path, default: 0] += 1 }
                putTimes.withLock { $0[path, default: []].append(.now) }
                if killed.load(ordering: .relaxed) { return .init(status: 200, body: .bytes(Array("{}".utf8))) }
                return .init(status: 200, body: .drip(Array("{}".utf8), interval: .milliseconds(50)))
            }
            // The pages' fetches; each instance's made-up address for the site aside.
            if !path.contains("/deskkit-") { fetches.withLock { $0[path, default: 0] += 1 } }
            return .html("<title>Order \(path)</title>")
        }
        try await server.scoped {
            // The lease outlasts the longest job on a busy machine (a job may wait 12 s for a page another instance
            // fetches): a lease that runs out under a live worker would repeat its PUT, and only the killed
            // instance's jobs should be redone.
            // The store's timeout is long too: a job's end that cannot be recorded in time is rightly run again,
            // which on a loaded machine would be counted as a repeat here.
            let arguments = [
                "--store", database, "--api-base", server.baseURL, "--job-lease", "20", "--workers", "\(Self.workers)",
                "--store-timeout", "60",
            ]
            var instances: [(Process, Int)] = []
            for _ in 0..<3 { instances.append(try await CrashRecoveryTests.serve(arguments, in: directory)) }
            defer { for (process, _) in instances where process.isRunning { process.terminate() } }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = 16
            let session = URLSession(configuration: configuration)

            /// Delivers messages `range`, each to instance `i % 3` and the next one (or, when one is down, the
            /// next that answers), 32 at a time. Returns the answers.
            func send(_ range: ClosedRange<Int>, ports: [Int?]) async -> [String: Int] {
                await withTaskGroup(of: [String].self) { group in
                    var answers: [String: Int] = [:]
                    var next = range.lowerBound
                    func add(_ id: Int) {
                        group.addTask {
                            let link = "\(server.baseURL)/page/\(id % Self.pages)"
                            var results: [String] = []
                            var target = id % 3
                            for _ in 0..<2 {
                                var answer: String?
                                for _ in 0..<3 where answer == nil {
                                    if let port = ports[target] {
                                        answer = await Self.deliver(id, to: port, link: link, session: session)
                                    }
                                    if answer == nil { target = (target + 1) % 3 }
                                }
                                results.append(answer ?? "lost")
                                target = (target + 1) % 3
                            }
                            return results
                        }
                    }
                    while next <= range.upperBound, next < range.lowerBound + 32 {
                        add(next)
                        next += 1
                    }
                    for await results in group {
                        for r in results { answers[r, default: 0] += 1 }
                        if next <= range.upperBound {
                            add(next)
                            next += 1
                        }
                    }
                    return answers
                }
            }

            let third = Self.messages / 3
            // Instance 0 dies with work in hand, while the first third is being delivered (its deliveries go to
            // the next instance from then on); the others go on alone, then it comes back.
            let ports = instances.map(\.1)
            async let firstThird = send(1...third, ports: ports)
            try await until("a hundred messages updated before the kill") { puts.withLock { $0.count } >= 100 }
            let updatedBeforeKill = puts.withLock { $0.count }
            let killedAt = ContinuousClock.now
            kill(instances[0].0.processIdentifier, SIGKILL)
            await CLI.exit(of: instances[0].0)
            killed.store(true, ordering: .relaxed)
            var answers = await firstThird
            answers.merge(
                await send((third + 1)...(2 * third), ports: [nil, instances[1].1, instances[2].1]), uniquingKeysWith: +
            )
            instances[0] = try await CrashRecoveryTests.serve(arguments, in: directory)
            answers.merge(await send((2 * third + 1)...Self.messages, ports: instances.map(\.1)), uniquingKeysWith: +)
            #expect(updatedBeforeKill < third, "the kill came with work in hand")
            // Two answers a message, from whichever instance; a delivery cut by the kill after its commit is
            // answered "duplicate" by the next instance, so a few messages (at most the 32 in flight) have no
            // "queued". That each has exactly one job is checked on the store below.
            #expect(answers["lost"] == nil && answers.values.reduce(0, +) == 2 * Self.messages, "\(answers)")
            #expect((Self.messages - 32)...Self.messages ~= answers["queued", default: 0], "\(answers)")

            try await until("every message updated", within: .seconds(150)) {
                puts.withLock { $0.count } >= Self.messages
            }
            let updated = puts.withLock { $0 }
            #expect(updated.count == Self.messages, "every message updated")
            let repeats = updated.values.reduce(0, +) - updated.count
            let repeated = putTimes.withLock { $0 }.filter { $0.value.count > 1 }.map { path, times in
                "\(path.split(separator: "/").last ?? ""): \(times.map { ($0 - killedAt).formatted(.units(allowed: [.milliseconds])) })"
            }
            #expect(
                repeats <= Self.workers,
                "repeats only for PUTs in flight at the kill: \(repeats), each PUT from the kill: \(repeated.sorted())")
            let fetched = fetches.withLock { $0 }
            #expect(fetched.count == Self.pages)
            let refetches = fetched.values.reduce(0, +) - fetched.count
            #expect(
                refetches <= Self.workers, "each page fetched once, but for fetches in flight at the kill: \(refetches)"
            )
            print("scale-out: \(Self.messages) messages, \(repeats) repeated PUTs, \(refetches) pages fetched again")
            for (process, _) in instances {
                process.terminate()
                await CLI.exit(of: process)
            }
            let done = try await CLI.run(["jobs", "list", "--store", database, "--state", "done", "--limit", "20000"])
            #expect(done.stdout.split(separator: "\n").count == Self.messages)
        }
    }
}
