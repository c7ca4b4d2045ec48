import DeskKitTime
import DequeModule
import DeskKitJobStore
import Foundation
import Logging

/// A store's due jobs, claimed with a lease as they are asked for: an `AsyncSequence` (as swift-jobs' drivers
/// hand their jobs to the queue), iterated once.
///
/// Each `next()` hands out a job claimed before, or claims up to `demand` (the initializer's) due jobs in one statement
/// (those the consumer can run now: at least one). When none is due, it waits — in its own task, on ``clock`` — until
/// the store's next due job (a retry, an expired lease) or the poll interval, whichever is sooner, or until it is woken
/// (``wake()``: an admission, another instance's `NOTIFY` through `JobStore.waitForArrivals(_:)`, a retry due soon, a
/// stop). A wake that finds no waiter is kept for the next wait, so none is lost between a claim and the wait.
///
/// Once `stopping` (the initializer's) says so, only the jobs that would be lost are claimed
/// (`JobStore.claimBeforeStop`, the memory store's), and the sequence ends when there are none. It ends too when
/// its task is cancelled.
package struct JobClaims: AsyncSequence, Sendable {
    package typealias Element = StoredJob
    package typealias Failure = Never

    /// Where the jobs are claimed.
    package let store: any JobStore
    /// How long a claim holds a job unless renewed.
    package let lease: Duration
    /// The longest wait before the store is asked again when nothing wakes the sequence.
    package let pollInterval: Duration
    /// How it waits and dates its claims.
    package let clock: ServiceClock
    /// How many jobs the consumer can take now (at least one is claimed).
    package let demand: @Sendable () -> Int
    /// Whether the consumer is stopping: then only jobs that would be lost are claimed.
    package let stopping: @Sendable () -> Bool
    private let logger: Logger
    private let wakeups: AsyncStream<Void>
    private let waker: AsyncStream<Void>.Continuation

    /// The claims of `store`'s due jobs (see each property).
    package init(
        store: any JobStore, lease: Duration, pollInterval: Duration = .seconds(1), clock: ServiceClock = .system,
        logger: Logger = Logger(label: "deskkit.jobs"), demand: @escaping @Sendable () -> Int = { 1 },
        stopping: @escaping @Sendable () -> Bool = { false }
    ) {
        self.store = store
        self.lease = lease
        self.pollInterval = pollInterval
        self.clock = clock
        self.logger = logger
        self.demand = demand
        self.stopping = stopping
        (wakeups, waker) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Ends a wait at once (or the next one, when none is waiting): a job may be due, or the consumer stops.
    package func wake() { waker.yield() }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(claims: self, wakeups: wakeups.makeAsyncIterator())
    }

    /// Claims as they are asked for.
    package struct AsyncIterator: AsyncIteratorProtocol {
        let claims: JobClaims
        var wakeups: AsyncStream<Void>.Iterator
        /// Jobs claimed and not handed out yet.
        private var claimed: Deque<StoredJob> = []
        /// Whether the last claim failed (logged once until the store answers again).
        private var storeDown = false

        init(claims: JobClaims, wakeups: AsyncStream<Void>.Iterator) {
            self.claims = claims
            self.wakeups = wakeups
        }

        /// The next job claimed, waiting for one to be due; nil once stopping with nothing left that would
        /// be lost, or when the task is cancelled.
        package mutating func next() async -> StoredJob? {
            let store = claims.store
            while !Task.isCancelled {
                if let job = claimed.popFirst() { return job }
                let (now, elapsed) = (claims.clock.now(), claims.clock.elapsed())
                let (limit, stopping) = (Swift.max(1, claims.demand()), claims.stopping())
                var wait = claims.pollInterval
                do throws(JobStoreError) {
                    let jobs: [StoredJob]
                    if stopping {
                        jobs = try await store.claimBeforeStop(limit: limit, now: now, lease: claims.lease)
                    } else {
                        jobs = try await store.claim(limit: limit, now: now, lease: claims.lease)
                    }
                    if storeDown { claims.logger.notice("the job store answers again") }
                    storeDown = false
                    if !jobs.isEmpty {
                        claimed.append(contentsOf: jobs)
                        continue
                    }
                    if stopping { return nil }
                    if let due = try? await store.nextDue() {
                        // At least a millisecond: a job due now that the claim just missed is another's.
                        wait = Swift.min(wait, .milliseconds(Swift.max(1, Int64(due.timeIntervalSince(now) * 1000))))
                    }
                } catch {
                    if !storeDown {
                        claims.logger.error("cannot claim jobs", metadata: ["error": .string(error.description)])
                    }
                    storeDown = true
                    if stopping { return nil }
                }
                // Until a time on the clock, not for a while from whenever the wait begins: a job due then runs then.
                await wakeups.nextSignal(until: elapsed + wait, on: claims.clock, signalling: claims.waker)
            }
            return nil
        }
    }
}
