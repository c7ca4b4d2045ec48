import DeskKitTime
import DeskKitTestSupport
import Clocks
import DeskKitPageServer
@testable import DeskKitPreview
import Foundation
import Testing

/// Pages of one host share kept-alive connections; every connection still goes to an address checked for
/// that host; the clients kept are bounded.
@Suite("Connection reuse", .serialized, .timeLimit(.minutes(10)))
struct ConnectionReuseTests {
    /// Answers each name from a table, counting lookups; a name not in it has no address.
    final class TableResolver: HostResolver, @unchecked Sendable {
        // The lock guards `table` and `lookups`.
        private let lock = NSLock()
        private var table: [String: IPAddress]
        private var count = 0

        init(_ table: [String: IPAddress]) { self.table = table }

        var lookups: Int { lock.withLock { count } }

        func set(_ host: String, _ address: IPAddress) { lock.withLock { table[host] = address } }

        func resolve(_ host: String) async throws -> [IPAddress] {
            try lock.withLock {
                count += 1
                guard let address = table[host] else { throw FetchError.dns(host, "no address") }
                return [address]
            }
        }
    }

    static func page(_ path: String) -> PageServer.Response {
        .html(#"<html><head><meta property="og:title" content="Page \#(path)"></head><body><p>Text</p></body></html>"#)
    }

    @Test func aHundredPagesOfOneHostOverFewConnections() async throws {
        let server = try await PageServer.start(host: "127.0.0.2", keepAlive: true) { Self.page($0) }
        try await server.scoped {
            let resolver = TableResolver(["shop.example": TestServer.address])
            let service = PreviewService(
                fetcher: PageFetcher(
                    configuration: TestServer.configuration(server), resolver: resolver, clock: TestServer.still))
            let urls = (0..<100).map { "http://shop.example:\(server.port)/item/\($0)" }
            let cards = await service.cards(for: urls)
            #expect(cards.allSatisfy { (try? $0.get()) != nil }, "\(cards.compactMap { try? $0.get() }.count) cards")
            #expect(server.connectionsAccepted <= 20, "\(server.connectionsAccepted) connections for 100 pages")
            #expect(server.connectionsAccepted >= 1)
            // Every page's host is checked again, and the made-up address the site is asked once beside them.
            #expect(resolver.lookups == 101, "every request's host is checked again")
        }
    }

    /// A server that closes each connection after its answer costs a connection a page, and nothing fails.
    @Test func aServerThatClosesEachConnectionStillAnswers() async throws {
        let server = try await PageServer.start(host: "127.0.0.2") { Self.page($0) }
        try await server.scoped {
            let fetcher = PageFetcher(configuration: TestServer.configuration(server), clock: TestServer.still)
            for i in 0..<5 {
                let page = try await fetcher.fetch("\(server.baseURL)/\(i)")
                #expect(page.metadata?.title == "Page /\(i)")
            }
            #expect(server.connectionsAccepted == 5)
        }
    }

    /// When a host's name answers another address, its next page goes there, over a new connection, never
    /// over one kept to the address checked before.
    @Test func anotherAddressIsAnotherConnection() async throws {
        let first = try await PageServer.start(host: "127.0.0.2", keepAlive: true) { _ in .html("<title>first</title>")
        }
        try await first.scoped {
            let second = try await PageServer.start(host: "127.0.0.5", port: first.port, keepAlive: true) { _ in
                .html("<title>second</title>")
            }
            try await second.scoped { () async throws in
                var c = TestServer.configuration(first)
                c.allowedAddresses = [TestServer.address, .v4(0x7F00_0005)]
                let resolver = TableResolver(["moving.example": TestServer.address])
                let fetcher = PageFetcher(configuration: c, resolver: resolver, clock: TestServer.still)
                let url = "http://moving.example:\(first.port)/"
                #expect(try await fetcher.fetch(url).metadata?.title == "first")
                #expect(try await fetcher.fetch(url).metadata?.title == "first")
                #expect(first.connectionsAccepted == 1, "kept alive")
                resolver.set("moving.example", .v4(0x7F00_0005))
                #expect(try await fetcher.fetch(url).metadata?.title == "second")
                #expect(second.connectionsAccepted == 1)
                // A private answer is still refused, whatever is kept open to the host's earlier address.
                resolver.set("moving.example", .v4(0x0A00_0001))
                await expectFailure(.blockedAddress) { () async throws(FetchError) in try await fetcher.fetch(url) }
                #expect(first.connectionsAccepted == 1 && second.connectionsAccepted == 1)
            }
        }
    }

    /// At most `maxIdleHosts` hosts keep their connections; one idle past `idleConnectionTimeout` loses them.
    @Test func keptClientsAreBounded() async throws {
        let server = try await PageServer.start(host: "127.0.0.2", keepAlive: true) { Self.page($0) }
        try await server.scoped {
            let hosts = (0..<10).map { "h\($0).example" }
            let resolver = TableResolver(Dictionary(uniqueKeysWithValues: hosts.map { ($0, TestServer.address) }))
            var c = TestServer.configuration(server)
            c.maxIdleHosts = 3
            let clock = TestClock()
            let fetcher = PageFetcher(configuration: c, resolver: resolver, clock: ServiceClock(clock))
            for host in hosts { _ = try await fetcher.fetch("http://\(host):\(server.port)/") }
            #expect(fetcher.hostsWithConnections <= 3, "\(fetcher.hostsWithConnections)")
            #expect(server.connectionsAccepted == 10)
            await clock.advance(by: .milliseconds(1999))
            _ = try await fetcher.fetch("http://h9.example:\(server.port)/")
            #expect(fetcher.hostsWithConnections == 3, "idle for less than 2 s: kept")
            await clock.advance(by: .milliseconds(1))
            _ = try await fetcher.fetch("http://h9.example:\(server.port)/")
            #expect(fetcher.hostsWithConnections == 1, "the idle ones were closed")
            #expect(FetchConfiguration().maxIdleHosts == 64)
            #expect(FetchConfiguration().idleConnectionTimeout == .seconds(2))
        }
    }
}

@Suite("AsyncLimiter")
struct AsyncLimiterTests {
    /// A task cancelled while it waits for a place stops waiting at once and takes none.
    @Test func aCancelledWaiterLeavesAtOnce() async throws {
        let limiter = AsyncLimiter(limit: 1)
        try await limiter.acquire()
        let waiter = Task { try await limiter.acquire() }
        while await limiter.waiters == 0 { await Task.yield() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(await limiter.waiters == 0)
        // The place held is given to the next waiter, not lost to the one that left.
        let next = Task { try await limiter.acquire() }
        while await limiter.waiters == 0 { await Task.yield() }
        await limiter.release()
        try await next.value
        await limiter.release()
        try await limiter.acquire()
    }

    /// A wait for a place ends at its deadline (the image proxy's request's): it throws, takes no place, and the
    /// place held goes to the next waiter when it is given back.
    @Test func aWaitEndsAtItsDeadline() async throws {
        let clock = TestClock()
        let service = ServiceClock(clock)
        let limiter = AsyncLimiter(limit: 1)
        try await limiter.acquire()
        let waiting = Task { try await limiter.acquire(before: .seconds(10), clock: service) }
        try await until("the wait for a place") { limiter.waiters == 1 }
        await clock.advance(by: .seconds(10))
        await #expect(throws: PlaceWaitExpired.self) { try await waiting.value }
        #expect(limiter.waiters == 0)
        #expect(PageFetcher.map(PlaceWaitExpired()).kind == .timeout)
        // A place free within the deadline is taken, however long the clock runs after.
        let taking = Task { try await limiter.acquire(before: service.elapsed() + .seconds(10), clock: service) }
        try await until("the second wait for a place") { limiter.waiters == 1 }
        await clock.advance(by: .seconds(9))
        limiter.release()
        try await taking.value
        await clock.advance(by: .seconds(60))
        #expect(limiter.waiters == 0)
        limiter.release()
    }
}
