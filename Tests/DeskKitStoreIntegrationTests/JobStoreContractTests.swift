import Clocks
import DeskKitJobStore
import DeskKitTestSupport
import DeskKitTime
import Foundation
import SQLiteNIO
import Synchronization
import Testing

/// What every store promises (``JobStore``), checked on each real backend: the memory store, a SQLite file
/// in a temporary directory, and a fresh database in a throwaway PostgreSQL cluster.
@Suite("Job stores")
struct JobStoreContractTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case memory, sqlite, postgres
        var testDescription: String { rawValue }
        /// The stores in a database, which have a schema.
        static let databases: [Backend] = [.sqlite, .postgres]
    }

    static func job(_ id: Int64) -> EnrichmentJob {
        EnrichmentJob(channelURL: "c\(id % 3)", messageID: id, text: "https://example.com/\(id)")
    }

    /// Runs `body` with the path of a SQLite file in a new temporary directory, removed afterwards.
    static func withSQLitePath(_ body: (String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "deskkit-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory.appendingPathComponent("state.sqlite").path)
    }

    /// Runs `body` with a new, empty store of `backend` and its location (to open it again).
    static func withStore(_ backend: Backend, _ body: (any JobStore, StoreLocation) async throws -> Void) async throws {
        switch backend {
        case .memory:
            try await body(MemoryJobStore(), .memory)
        case .sqlite:
            try await withSQLitePath { path in
                let store = try await SQLiteJobStore.open(path: path)
                try await body(store, .sqlite(path: path))
                await store.close()
            }
        case .postgres:
            let location = try PostgresLocation(parsing: try await PostgresCluster.shared().makeDatabase())
            let store = try await PostgresJobStore.open(location, options: .unhurried)
            try await body(store, .postgres(location))
            await store.close()
        }
    }

    /// `store` as another connection (another process) sees it: the database opened again; the memory
    /// store is one process's, and itself.
    static func open(_ location: StoreLocation, as store: any JobStore) async throws -> any JobStore {
        location == .memory ? store : try await reopen(location)
    }

    /// The store at `location` opened again, unhurried as the first was (``withStore(_:_:)``): these tests are of
    /// the stores' promises, not of their deadlines, and beside `stress-ng` an open on the shared cluster took more
    /// than a server's 5 s.
    static func reopen(_ location: StoreLocation) async throws -> any JobStore {
        try await location.open(timeout: PostgresJobStore.Options.unhurried.operationTimeout)
    }

    @Test(arguments: Backend.allCases)
    func concurrentAdmissionsAreCommittedTogetherAndDeduplicated(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, location in
            let now = Date()
            // 2,000 admissions at once, each id twice: exactly one of each pair is admitted.
            let admitted = await withTaskGroup(of: Bool.self) { group in
                for i in 0..<2000 {
                    group.addTask {
                        (try? await store.admit(Self.job(Int64(i / 2)), now: now, dedupWindow: .seconds(3600))) ?? false
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(admitted == 1000)
            #expect(try await store.counts()[.queued] == 1000)
            // Committed: another connection to the store sees them.
            let other = try await Self.open(location, as: store)
            #expect(try await other.counts()[.queued] == 1000)
            await other.close()
        }
    }

    /// What differs between stores at a server's stop is the stores' own: the memory store, whose jobs end
    /// with the process, hands out its due jobs during the grace and its unfinished ones after; a database
    /// keeps both for the next start.
    @Test(arguments: Backend.allCases)
    func atAStopOnlyJobsThatEndWithTheProcessAreHandedOut(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, _ in
            let t0 = Date(timeIntervalSince1970: 1_500_000)
            for id in 1...3 { _ = try await store.admit(Self.job(Int64(id)), now: t0, dedupWindow: .seconds(60)) }
            let before = try await store.claimBeforeStop(limit: 1, now: t0, lease: .seconds(30))
            let lost = await store.jobsLostAtExit().map(\.messageID)
            if backend == .memory {
                #expect(before.map(\.job.messageID) == [1] && lost == [2, 3])
            } else {
                #expect(before.isEmpty && lost.isEmpty)
                #expect(try await store.counts()[.queued] == 3, "kept for the next start")
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func aDoneJobIsADuplicateWithinTheWindowOnly(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, _ in
            let t0 = Date(timeIntervalSince1970: 1_000_000)
            #expect(try await store.admit(Self.job(1), now: t0, dedupWindow: .seconds(60)))
            let claimed = try await store.claim(limit: 10, now: t0, lease: .seconds(30))
            try await store.finish(claimed[0], as: .done, error: nil, now: t0)
            #expect(claimed.map(\.job.messageID) == [1])
            #expect(try await !store.admit(Self.job(1), now: t0.addingTimeInterval(59), dedupWindow: .seconds(60)))
            #expect(try await store.admit(Self.job(1), now: t0.addingTimeInterval(61), dedupWindow: .seconds(60)))
            #expect(try await store.list(state: .queued, limit: 10).first?.attempts == 0)
            // A job not done is a duplicate at any age: its work is still owed.
            #expect(try await store.admit(Self.job(2), now: t0, dedupWindow: .seconds(60)))
            #expect(try await !store.admit(Self.job(2), now: t0.addingTimeInterval(3600), dedupWindow: .seconds(60)))
        }
    }

    /// Idle workers sleep until the store's next due job: the earliest queued job's attempt or running job's
    /// lease end; nothing when every job has ended.
    @Test(arguments: Backend.allCases)
    func nextDueIsTheEarliestAttemptOrLeaseEnd(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, _ in
            let t0 = Date(timeIntervalSince1970: 2_000_000)
            func expectDue(_ expected: Date?, _ comment: Comment) async throws {
                let due = try await store.nextDue()
                #expect(
                    due.map { abs($0.timeIntervalSince(expected ?? .distantPast)) < 0.001 } ?? (expected == nil),
                    comment)
            }
            try await expectDue(nil, "an empty store")
            for id in 1...2 { _ = try await store.admit(Self.job(Int64(id)), now: t0, dedupWindow: .seconds(60)) }
            try await expectDue(t0, "queued jobs, due at admission")
            let claimed = try await store.claim(limit: 2, now: t0, lease: .seconds(30))
            try await expectDue(t0.addingTimeInterval(30), "running jobs: their leases' end")
            try await store.reschedule(
                claimed[0], dueAt: t0.addingTimeInterval(10), error: nil, now: t0.addingTimeInterval(1))
            try await expectDue(t0.addingTimeInterval(10), "a retry due before the other lease ends")
            let retried = try await store.claim(limit: 1, now: t0.addingTimeInterval(10), lease: .seconds(60))
            try await store.finish(retried[0], as: .done, error: nil, now: t0.addingTimeInterval(11))
            try await expectDue(t0.addingTimeInterval(30), "the retry ended: the lease")
            try await store.finish(claimed[1], as: .failed, error: "x", now: t0.addingTimeInterval(12))
            try await expectDue(nil, "every job ended")
        }
    }

    /// Another instance's admission wakes this one's idle workers: PostgreSQL tells every listener at the
    /// commit; a store only one process writes has nothing to tell and returns at once.
    @Test(arguments: Backend.allCases)
    func anAdmissionElsewhereIsAnnounced(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, location in
            let other = try await Self.open(location, as: store)
            let woken = AsyncStream<Void>.makeStream()
            let listener = Task { await other.waitForArrivals { woken.continuation.yield() } }
            guard backend == .postgres else {
                await listener.value  // returned at once
                if backend == .sqlite { await other.close() }
                return
            }
            // Admitted until one is heard (the listener may not listen yet).
            var id: Int64 = 0
            var heard = woken.stream.makeAsyncIterator()
            let heardOne = Atomic(false)
            let hearing = Task {
                _ = await heard.next()
                heardOne.store(true, ordering: .relaxed)
            }
            try await until("an admission heard by the other store") {
                id += 1
                _ = try? await store.admit(Self.job(id), now: Date(), dedupWindow: .seconds(60))
                return heardOne.load(ordering: .relaxed)
            }
            await hearing.value
            listener.cancel()
            await listener.value
            await other.close()
        }
    }

    /// A worker cancelled at the end of a shutdown's grace still writes how its job ended: the job goes back
    /// in the store, or is done, rather than staying claimed until its lease runs out. And an admission made by
    /// a cancelled task is written: a group commit's batch is written for every request in it, whichever leads.
    @Test(arguments: Backend.allCases)
    func aCancelledCallerStillWritesAJobsEnd(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, _ in
            let t0 = Date(timeIntervalSince1970: 2_000_000)
            for id in 1...2 { _ = try await store.admit(Self.job(Int64(id)), now: t0, dedupWindow: .seconds(60)) }
            let claimed = try await store.claim(limit: 2, now: t0, lease: .seconds(30))
            let worker = Task {
                await untilCancelled()
                #expect(Task.isCancelled)
                let requeued = try await store.reschedule(
                    claimed[0], dueAt: t0, error: nil, now: t0.addingTimeInterval(1))
                let finished = try await store.finish(claimed[1], as: .done, error: nil, now: t0.addingTimeInterval(1))
                #expect(requeued && finished)
                #expect(try await store.admit(Self.job(3), now: t0, dedupWindow: .seconds(60)))
            }
            worker.cancel()
            try await worker.value
            #expect(try await store.counts() == [.queued: 2, .running: 0, .done: 1, .failed: 0])
        }
    }

    @Test(arguments: Backend.allCases)
    func leasesRescheduleAndFinish(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, _ in
            let t0 = Date(timeIntervalSince1970: 2_000_000)
            for id in 1...3 { _ = try await store.admit(Self.job(Int64(id)), now: t0, dedupWindow: .seconds(60)) }
            let first = try await store.claim(limit: 2, now: t0, lease: .seconds(30))
            #expect(first.map(\.job.messageID) == [1, 2])
            #expect(first.allSatisfy { $0.state == .running && $0.attempts == 1 })
            // Claimed jobs are nobody else's until their lease runs out.
            let third = try #require(
                try await store.claim(limit: 10, now: t0.addingTimeInterval(1), lease: .seconds(30)).first)
            #expect(third.job.messageID == 3)
            #expect(try await store.claim(limit: 10, now: t0.addingTimeInterval(29), lease: .seconds(30)).isEmpty)
            // Job 1's worker died: after the lease it is claimed again, a second attempt.
            try await store.finish(first[1], as: .done, error: nil, now: t0.addingTimeInterval(2))
            try await store.reschedule(
                third, dueAt: t0.addingTimeInterval(100), error: "HTTP 503", now: t0.addingTimeInterval(2))
            let again = try await store.claim(limit: 10, now: t0.addingTimeInterval(31), lease: .seconds(30))
            #expect(again.map(\.job.messageID) == [1])
            #expect(again.first?.attempts == 2)
            // A rescheduled job waits until it is due, and keeps its error.
            #expect(try await store.list(state: .queued, limit: 10).first?.lastError == "HTTP 503")
            #expect(try await store.claim(limit: 10, now: t0.addingTimeInterval(50), lease: .seconds(60)).isEmpty)
            #expect(
                try await store.claim(limit: 10, now: t0.addingTimeInterval(100), lease: .seconds(60)).map(
                    \.job.messageID) == [1, 3], "job 1: its lease ran out again")
            let counts = try await store.counts()
            #expect(counts == [.queued: 0, .running: 2, .done: 1, .failed: 0])
        }
    }

    @Test(arguments: Backend.allCases)
    func aRenewedLeaseKeepsTheJobAndOnlyItsClaimRenewsIt(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, _ in
            let t0 = Date(timeIntervalSince1970: 2_500_000)
            for id in 1...3 { _ = try await store.admit(Self.job(Int64(id)), now: t0, dedupWindow: .seconds(60)) }
            let claimed = try await store.claim(limit: 3, now: t0, lease: .seconds(30))
            try #require(claimed.count == 3)
            try await store.finish(claimed[2], as: .done, error: nil, now: t0)
            // The worker's heartbeat: its running jobs are renewed, an ended one is not.
            #expect(try await store.renew(claimed, until: t0.addingTimeInterval(60)) == [1, 2])
            #expect(try await store.renew([], until: t0.addingTimeInterval(60)) == [])
            #expect(
                try await store.claim(limit: 10, now: t0.addingTimeInterval(45), lease: .seconds(30)).isEmpty,
                "past the first lease, within the renewed one: still the worker's")
            // The worker stops renewing (it died): the renewed lease runs out, another worker claims the jobs.
            let again = try await store.claim(limit: 10, now: t0.addingTimeInterval(61), lease: .seconds(30))
            #expect(again.map(\.job.messageID) == [1, 2])
            #expect(again.allSatisfy { $0.attempts == 2 })
            // The first claim is stale: it renews nothing, and the new claim's lease stands.
            #expect(try await store.renew(claimed, until: t0.addingTimeInterval(500)) == [])
            #expect(try await store.renew(again, until: t0.addingTimeInterval(120)) == [1, 2])
            #expect(try await store.claim(limit: 10, now: t0.addingTimeInterval(119), lease: .seconds(30)).isEmpty)
            #expect(try await store.claim(limit: 10, now: t0.addingTimeInterval(121), lease: .seconds(30)).count == 2)
        }
    }

    /// Fenced writes: a worker whose lease passed (it froze, or lost the database) and whose job another worker
    /// has since claimed and ended can no longer write the job — not its end, not a retry, not a renewal — and
    /// is told so; the job stays as the second worker left it. Time is a `TestClock`'s, moved by the test. The
    /// same holds after an operator's retry has reset the job's attempts (the claim token, not the attempt
    /// count, decides).
    @Test(arguments: Backend.allCases)
    func aWorkerThatLostItsClaimWritesNothing(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, _ in
            let testClock = TestClock()
            let clock = ServiceClock(testClock)
            let lease = Duration.seconds(30)
            _ = try await store.admit(Self.job(1), now: clock.now(), dedupWindow: .seconds(3600))
            let first = try #require(try await store.claim(limit: 1, now: clock.now(), lease: lease).first)
            // The first worker freezes; its lease passes; a second worker claims the job and fails it for good.
            await testClock.advance(by: lease + .seconds(1))
            let second = try #require(try await store.claim(limit: 1, now: clock.now(), lease: lease).first)
            #expect(second.attempts == 2 && second.claimToken != first.claimToken)
            #expect(try await store.finish(second, as: .failed, error: "HTTP 404", now: clock.now()))
            // The first worker wakes: each of its writes is refused, and changes nothing.
            await testClock.advance(by: .seconds(5))
            #expect(try await !store.finish(first, as: .done, error: nil, now: clock.now()))
            #expect(try await !store.reschedule(first, dueAt: clock.now(), error: "HTTP 503", now: clock.now()))
            #expect(try await store.renew([first], until: clock.now().addingTimeInterval(60)).isEmpty)
            var job = try #require(try await store.list(state: nil, limit: 10).first)
            #expect(job.state == .failed && job.attempts == 2 && job.lastError == "HTTP 404")
            #expect(try await store.claim(limit: 1, now: clock.now(), lease: lease).isEmpty)
            // An operator retries it (attempts back to 0) and a third claim takes it, at attempt 1 again: the
            // first worker's claim, attempt 1 too, is still not this one.
            #expect(try await store.retry([1], now: clock.now()) == 1)
            let third = try #require(try await store.claim(limit: 1, now: clock.now(), lease: lease).first)
            #expect(third.attempts == first.attempts)
            #expect(try await !store.finish(first, as: .failed, error: "stale", now: clock.now()))
            #expect(try await !store.reschedule(second, dueAt: clock.now(), error: nil, now: clock.now()))
            job = try #require(try await store.list(state: nil, limit: 10).first)
            #expect(job.state == .running && job.claimToken == third.claimToken)
            // The third claim's own writes hold.
            #expect(try await store.renew([third], until: clock.now().addingTimeInterval(60)) == [1])
            #expect(try await store.finish(third, as: .done, error: nil, now: clock.now()))
            #expect(try await store.counts() == [.queued: 0, .running: 0, .done: 1, .failed: 0])
            if backend == .postgres {
                #expect(third.claimToken > second.claimToken && second.claimToken > first.claimToken, "a sequence")
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func jobsLeftRunningAreTakenBackAtStartOnlyByAStoreOfOneServer(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, location in
            let t0 = Date()
            for id in 1...3 { _ = try await store.admit(Self.job(Int64(id)), now: t0, dedupWindow: .seconds(60)) }
            _ = try await store.claim(limit: 2, now: t0, lease: .seconds(30))
            // A new process opens the store (the one that claimed died).
            let next = try await Self.open(location, as: store)
            let recovered = try await next.recoverAbandoned(now: t0.addingTimeInterval(1))
            let claimable = try await next.claim(limit: 10, now: t0.addingTimeInterval(1), lease: .seconds(30))
            switch backend {
            case .memory, .sqlite:
                // The store is one server's: what was running is queued again at once, due now.
                #expect(recovered == 2)
                #expect(claimable.map(\.job.messageID) == [1, 2, 3])
                #expect(claimable.allSatisfy { $0.state == .running } && claimable.map(\.attempts) == [2, 2, 1])
            case .postgres:
                // Shared by instances: the running jobs may be a live instance's; their leases decide.
                #expect(recovered == 0)
                #expect(claimable.map(\.job.messageID) == [3])
            }
            await next.close()
        }
    }

    @Test(arguments: Backend.allCases)
    func operatorsRetryFailedJobsAndPurgeDoneOnes(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, _ in
            let t0 = Date(timeIntervalSince1970: 3_000_000)
            for id in 1...4 { _ = try await store.admit(Self.job(Int64(id)), now: t0, dedupWindow: .seconds(60)) }
            let claimed = try await store.claim(limit: 4, now: t0, lease: .seconds(30))
            try await store.finish(claimed[0], as: .failed, error: "HTTP 404", now: t0)
            try await store.finish(claimed[1], as: .failed, error: "HTTP 403", now: t0)
            try await store.finish(claimed[2], as: .done, error: nil, now: t0)
            try await store.finish(claimed[3], as: .done, error: nil, now: t0.addingTimeInterval(100))
            #expect(
                try await store.list(state: .failed, limit: 10).compactMap(\.lastError).sorted() == [
                    "HTTP 403", "HTTP 404",
                ])
            #expect(try await store.retry([1, 3], now: t0.addingTimeInterval(10)) == 1, "only failed jobs are retried")
            #expect(try await store.retry(nil, now: t0.addingTimeInterval(10)) == 1)
            let queued = try await store.list(state: .queued, limit: 10)
            #expect(Set(queued.map(\.job.messageID)) == [1, 2])
            #expect(
                queued.allSatisfy {
                    $0.attempts == 0 && $0.lastError == nil && $0.acceptedAt == t0.addingTimeInterval(10)
                })
            #expect(try await store.purge(doneBefore: t0.addingTimeInterval(50)) == 1)
            #expect(try await store.list(state: .done, limit: 10).map(\.job.messageID) == [4])
        }
    }

    @Test(arguments: Backend.allCases)
    func theLinksFoundAtAdmissionAreKept(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, location in
            let t0 = Date(timeIntervalSince1970: 4_000_000)
            let links = ["https://example.com/a?b=1#c", "https://пример.рф/путь"]
            var job = Self.job(1)
            job.links = links
            #expect(try await store.admit(job, now: t0, dedupWindow: .seconds(60)))
            #expect(try await store.admit(Self.job(2), now: t0, dedupWindow: .seconds(60)))
            let claimed = try await store.claim(limit: 10, now: t0, lease: .seconds(30))
            #expect(claimed.first { $0.job.messageID == 1 }?.job == job)
            #expect(claimed.first { $0.job.messageID == 2 }?.job.links == nil, "none given, none made up")
            let other = try await Self.open(location, as: store)
            #expect(
                try await other.list(state: .running, limit: 10).first { $0.job.messageID == 1 }?.job.links == links)
            await other.close()
        }
    }

    /// The language a job's pages are asked for is kept with it, and a job without one has none.
    @Test(arguments: Backend.allCases)
    func aJobKeepsItsLanguage(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, _ in
            let t0 = Date(timeIntervalSince1970: 4_500_000)
            var job = Self.job(1)
            job.language = "ru, *;q=0.5"
            #expect(try await store.admit(job, now: t0, dedupWindow: .seconds(60)))
            #expect(try await store.admit(Self.job(2), now: t0, dedupWindow: .seconds(60)))
            let claimed = try await store.claim(limit: 10, now: t0, lease: .seconds(30))
            #expect(claimed.first { $0.job.messageID == 1 }?.job.language == "ru, *;q=0.5")
            #expect(claimed.first { $0.job.messageID == 2 }?.job.language == nil)
            #expect(job.json["language"] == "ru, *;q=0.5" && Self.job(2).json["language"] == nil)
        }
    }

    /// The trace a job continues is kept with it, field by field, and a job without one has none.
    @Test(arguments: Backend.allCases)
    func aJobKeepsItsTraceContext(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, location in
            let t0 = Date(timeIntervalSince1970: 4_600_000)
            var job = Self.job(1)
            job.traceContext = [
                "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "tracestate": "vendor=a:b, other=c",
            ]
            #expect(try await store.admit(job, now: t0, dedupWindow: .seconds(60)))
            #expect(try await store.admit(Self.job(2), now: t0, dedupWindow: .seconds(60)))
            let claimed = try await store.claim(limit: 10, now: t0, lease: .seconds(30))
            #expect(claimed.first { $0.job.messageID == 1 }?.job == job)
            #expect(claimed.first { $0.job.messageID == 2 }?.job.traceContext == [:])
            if backend != .memory {
                let other = try await Self.open(location, as: store)
                #expect(
                    try await other.list(state: .running, limit: 10).first { $0.job.messageID == 1 }?.job.traceContext
                        == job.traceContext)
                await other.close()
            }
        }
        // The stored form reads back what it wrote, and skips a line that is no field.
        let fields = ["b": "2: two", "a": "1"]
        let stored = EnrichmentJob(channelURL: "c", messageID: 1, text: "", traceContext: fields).storedTraceContext
        #expect(stored == "a: 1\nb: 2: two")
        #expect(EnrichmentJob.traceContext(stored: stored) == fields)
        #expect(EnrichmentJob.traceContext(stored: "no field\na: 1") == ["a": "1"])
        #expect(EnrichmentJob.traceContext(stored: nil) == [:])
    }

    /// A store written by the version before links (schema 1) opens: migrated in place, its jobs kept, and
    /// claimed without links (the worker then finds them in the text).
    /// A listing a page at a time (`before:` the last of a page) gives every job once, newest first — jobs admitted
    /// at one instant (retried together) included, which only their message ids order.
    @Test(arguments: Backend.allCases)
    func pagesOfAListingHoldEveryJobOnce(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, _ in
            let t0 = Date(timeIntervalSince1970: 1_795_000_000.123456)
            for id in Int64(1)...7 {
                #expect(try await store.admit(Self.job(id), now: t0.addingTimeInterval(Double(id)), dedupWindow: .zero))
            }
            // Five of them fail and are retried together: one instant of admission for all five.
            let claimed = try await store.claim(limit: 5, now: t0.addingTimeInterval(10), lease: .seconds(60))
            for job in claimed { try await store.finish(job, as: .failed, error: "x", now: t0.addingTimeInterval(10)) }
            #expect(try await store.retry(nil, now: t0.addingTimeInterval(20)) == 5)
            var seen: [Int64] = []
            var before: JobPosition?
            for _ in 0..<10 {
                let page = try await store.list(state: nil, limit: 2, before: before)
                seen += page.map(\.job.messageID)
                guard page.count == 2, let last = page.last else { break }
                before = last.position
            }
            // The retried ones (admitted last, at one instant) by id, then the others, newest first.
            let retried = claimed.map(\.job.messageID).sorted(by: >)
            let others = (Int64(1)...7).filter { !retried.contains($0) }.sorted(by: >)
            #expect(seen == retried + others)
            let failedPage = try await store.list(state: .queued, limit: 3, before: nil)
            #expect(failedPage.map(\.job.messageID) == Array(retried.prefix(3)))
        }
    }

    @Test(arguments: Backend.databases)
    func aStoreOfSchemaOneIsMigrated(_ backend: Backend) async throws {
        let job = Self.job(7)
        let t0 = 5_000_000.0
        switch backend {
        case .sqlite:
            try await Self.withSQLitePath { path in
                // The file as deskkit with schema 1 left it.
                let old = try await SQLiteConnection.open(storage: .file(path: path))
                for statement in [
                    """
                    CREATE TABLE jobs (message_id INTEGER PRIMARY KEY, channel_url TEXT NOT NULL, text TEXT NOT NULL,
                        state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, accepted_at REAL NOT NULL,
                        next_attempt_at REAL NOT NULL, lease_until REAL, updated_at REAL NOT NULL, last_error TEXT)
                    """,
                    "INSERT INTO jobs VALUES (7, '\(job.channelURL)', '\(job.text)', 'queued', 0, \(t0), \(t0), NULL, \(t0), NULL)",
                    "PRAGMA user_version = 1",
                ] {
                    _ = try await old.query(statement)
                }
                try await old.close()
                let store = try await SQLiteJobStore.open(path: path)
                try await Self.expectMigrated(store, job, t0)
                await store.close()
                let check = try await SQLiteConnection.open(storage: .file(path: path))
                #expect(try await check.query("PRAGMA user_version").first?.column("user_version")?.integer == 5)
                try await check.close()
            }
        case .memory: break
        case .postgres:
            let cluster = try await PostgresCluster.shared()
            let database = try await cluster.makeDatabase()
            let location = try PostgresLocation(parsing: database)
            // The database as deskkit with schema 1 left it: open, then take the later columns away again.
            await (try await PostgresJobStore.open(location, options: .unhurried)).close()
            try await cluster.psql(
                location.database,
                """
                ALTER TABLE deskkit_jobs DROP COLUMN links; ALTER TABLE deskkit_jobs DROP COLUMN language; ALTER TABLE deskkit_jobs DROP COLUMN trace_context;
                ALTER TABLE deskkit_jobs DROP COLUMN claim_token; DROP SEQUENCE deskkit_job_claims;
                DELETE FROM deskkit_schema WHERE version >= 2;
                INSERT INTO deskkit_jobs (message_id, channel_url, text, state, attempts, accepted_at, next_attempt_at, updated_at)
                VALUES (7, '\(job.channelURL)', '\(job.text)', 'queued', 0, to_timestamp(\(t0)), to_timestamp(\(t0)), to_timestamp(\(t0)))
                """)
            let store = try await PostgresJobStore.open(location, options: .unhurried)
            try await Self.expectMigrated(store, job, t0)
            await store.close()
            #expect(try await cluster.psql(location.database, "SELECT max(version) FROM deskkit_schema") == "6")
        }
    }

    /// `store`, migrated from schema 1 with `job` queued at `t0`: the job is there without links, and a new
    /// job keeps its links.
    static func expectMigrated(_ store: any JobStore, _ job: EnrichmentJob, _ t0: Double) async throws {
        let now = Date(timeIntervalSince1970: t0 + 1)
        var linked = Self.job(8)
        linked.links = ["https://example.com/8"]
        #expect(try await store.admit(linked, now: now, dedupWindow: .seconds(60)))
        let claimed = try await store.claim(limit: 10, now: now, lease: .seconds(30))
        #expect(claimed.map(\.job) == [job, linked])
    }

    @Test(arguments: Backend.databases)
    func aStoreFromANewerVersionIsRefused(_ backend: Backend) async throws {
        try await Self.withStore(backend) { store, location in
            let other = try await Self.reopen(location)  // opening a migrated store again changes nothing
            await other.close()
            // Pretend a newer deskkit migrated the store.
            if let path = location.sqlitePath {
                let newer = try await SQLiteConnection.open(storage: .file(path: path))
                _ = try await newer.query("PRAGMA user_version = 99")
                try await newer.close()
            } else if let p = location.postgres {
                #expect(
                    try await PostgresCluster.shared().psql(p.database, "SELECT max(version) FROM deskkit_schema")
                        == "6")
                try await PostgresCluster.shared().psql(p.database, "INSERT INTO deskkit_schema (version) VALUES (99)")
            }
            let error = await #expect(throws: JobStoreError.self) { _ = try await Self.reopen(location) }
            #expect(error?.kind == .cannotOpen)
            #expect(error?.detail.contains("schema version 99") == true)
        }
    }

    @Test func locations() throws {
        #expect(try StoreLocation(parsing: "memory") == .memory)
        #expect(
            try StoreLocation(parsing: "sqlite:/var/lib/deskkit/state.sqlite")
                == .sqlite(path: "/var/lib/deskkit/state.sqlite"))
        #expect(StoreLocation.default == .sqlite(path: "deskkit-state.sqlite"))
        #expect(throws: JobStoreError.self) { try StoreLocation(parsing: "redis://x") }
        #expect(throws: JobStoreError.self) { try StoreLocation(parsing: "sqlite:") }
        let postgres = try StoreLocation(parsing: "postgres://app:s%40cret@db.internal:6432/desk?sslmode=require")
        #expect(
            postgres
                == .postgres(
                    PostgresLocation(
                        host: "db.internal", port: 6432, username: "app", password: "s@cret", database: "desk",
                        tls: .require)))
        #expect(
            postgres.description == "postgres://app:***@db.internal:6432/desk?sslmode=require",
            "the password is never printed")
        #expect(
            try StoreLocation(parsing: "postgresql://app@[::1]/desk")
                == .postgres(PostgresLocation(host: "::1", username: "app", database: "desk")))
        for bad in [
            "postgres://db/desk", "postgres://app@db", "postgres://app@db/desk?sslmode=maybe",
            "postgres://app@db/desk?timeout=1",
        ] {
            let error = #expect(throws: JobStoreError.self, "\(bad)") { try StoreLocation(parsing: bad) }
            #expect(error?.kind == .badLocation)
        }
    }
}
