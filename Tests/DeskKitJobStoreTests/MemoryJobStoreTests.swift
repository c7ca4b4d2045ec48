import DeskKitJobStore
import Foundation
import Testing

/// What the memory store adds to the contract: its bounds.
@Suite("Memory job store")
struct MemoryJobStoreTests {
    static let t0 = Date(timeIntervalSince1970: 6_000_000)

    static func admit(_ store: MemoryJobStore, _ id: Int64, at offset: Double = 0) async throws -> Bool {
        let job = EnrichmentJob(channelURL: "c\(id % 3)", messageID: id, text: "https://example.com/\(id)")
        return try await store.admit(job, now: t0.addingTimeInterval(offset), dedupWindow: .seconds(60))
    }

    @Test func unfinishedJobsAreBoundedAndARefusedOneIsNotRemembered() async throws {
        var configuration = MemoryJobStore.Configuration()
        configuration.capacity = 2
        let store = MemoryJobStore(configuration: configuration)
        #expect(try await Self.admit(store, 1))
        #expect(try await !Self.admit(store, 1), "a duplicate")
        #expect(try await Self.admit(store, 2))
        let error = await #expect(throws: JobStoreError.self) { _ = try await Self.admit(store, 3) }
        #expect(error?.kind == .full)
        #expect(error?.description.hasPrefix("full: ") == true)
        // A running job still counts; an ended one frees its place, and the refused id is admitted then.
        let claimed = await store.claim(limit: 1, now: Self.t0, lease: .seconds(30))
        await #expect(throws: JobStoreError.self) { _ = try await Self.admit(store, 3) }
        await store.finish(claimed[0], as: .done, error: nil, now: Self.t0)
        #expect(try await Self.admit(store, 3))
        #expect(await store.counts() == [.queued: 2, .running: 0, .done: 1, .failed: 0])
    }

    @Test func theOldestEndedJobsAreForgottenBeyondTheBound() async throws {
        var configuration = MemoryJobStore.Configuration()
        configuration.remembered = 2
        let store = MemoryJobStore(configuration: configuration)
        for id in Int64(1)...3 { #expect(try await Self.admit(store, id)) }
        for claim in await store.claim(limit: 3, now: Self.t0, lease: .seconds(30)) {
            await store.finish(claim, as: claim.job.messageID == 2 ? .failed : .done, error: nil, now: Self.t0)
        }
        #expect(await store.counts() == [.queued: 0, .running: 0, .done: 1, .failed: 1], "job 1 was forgotten")
        #expect(try await Self.admit(store, 1, at: 1), "forgotten, so no longer a duplicate")
        #expect(try await !Self.admit(store, 3, at: 1), "remembered within the window")
    }

    @Test func manyJobsStayInDueOrderAndStaleLeasesAreDropped() async throws {
        let store = MemoryJobStore()
        // Admitted in reverse time order: claims hand them out due first.
        for id in Int64(1)...1000 { #expect(try await Self.admit(store, id, at: Double(1000 - id))) }
        var order: [Int64] = []
        while case let jobs = await store.claim(limit: 64, now: Self.t0.addingTimeInterval(2000), lease: .seconds(30)),
            !jobs.isEmpty
        {
            order += jobs.map(\.job.messageID)
            // Each renewed many times: the stale leases must not hand a job out twice.
            for step in 1...5 {
                _ = await store.renew(jobs, until: Self.t0.addingTimeInterval(2000 + Double(step)))
            }
        }
        #expect(order == Array((1...1000).reversed()))
        #expect(await store.claim(limit: 10, now: Self.t0.addingTimeInterval(2004), lease: .seconds(30)).isEmpty)
        let expired = await store.claim(limit: 2000, now: Self.t0.addingTimeInterval(2006), lease: .seconds(30))
        #expect(expired.count == 1000, "each job once, though it has six leases in the heap")
        #expect(Set(expired.map(\.job.messageID)).count == 1000)
    }
}
