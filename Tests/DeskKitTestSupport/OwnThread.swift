import Foundation

/// `body`'s answer, `body` run whole on a new thread while the caller's task is suspended: for a wait that blocks
/// its thread — a child process's exit, a pipe read to its end, a browser's screenshot — and for a test whose work is
/// seconds of CPU without a suspension (a sweep over a corpus, every split of a text), which wraps its body in it.
///
/// Swift concurrency runs every suite's tasks on a cooperative pool of as many threads as the machine has cores
/// (two here and on CI). A test that blocks one of them for the seconds a child process takes under load, or
/// computes on it for seconds, holds up every other suite's continuations meanwhile — a deadline's answer, a
/// server's response, a store's result, a look of ``until(_:within:_:)`` — and a test that is right fails on time
/// it never had. On a thread of its own the system shares the cores between it and the pool.
///
/// `body` runs isolated to an actor whose executor is a new thread's: the test's own task hops to it, runs the
/// synchronous `body` there whole, and hops back. An actor's executor is where its code runs — a rule, where a task
/// executor preference is a preference (`Task.yield()` and `Task.sleep` keep none: swiftlang/swift#74395). It is the
/// test's task, so an `#expect` in `body` is the test's.
public func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    let executor = ThreadExecutor()
    defer { executor.finish() }
    return try await OwnThread(executor: executor).run(body)
}

/// The name of the threads ``onThreadOfItsOwn(_:)`` runs its work on (15 bytes: Linux keeps no more).
public let ownThreadName = "own test thread"

/// The actor ``onThreadOfItsOwn(_:)`` runs its work on: its executor is one thread's.
private actor OwnThread {
    let executor: ThreadExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(executor: ThreadExecutor) { self.executor = executor }

    func run<T: Sendable>(_ body: @Sendable () throws -> T) throws -> T { try body() }
}

/// A serial executor with one thread of its own, which runs the jobs given to it in turn until ``finish()``; a job
/// given after that (none is: the actor is done with) runs on a thread of its own too.
private final class ThreadExecutor: SerialExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []  // guarded by `condition`
    private var finished = false  // guarded by `condition`
    private var named = false  // guarded by `condition`

    init() {
        let thread = Thread { [self] in run() }
        thread.start()
        // Named by its creator once `start()` has stored the thread's handle: Foundation's `Thread.name` setter names
        // nothing before that, so a thread that named itself could outrun it, and its name stayed the one Linux gave
        // it — its creator's, a pool thread's (`oot.default-qos`). It takes no job until it is named.
        thread.name = ownThreadName
        condition.lock()
        named = true
        condition.signal()
        condition.unlock()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        condition.lock()
        if finished {
            condition.unlock()
            let late = UnownedJob(job)
            Thread { [self] in late.runSynchronously(on: asUnownedSerialExecutor()) }.start()
        } else {
            jobs.append(UnownedJob(job))
            condition.signal()
            condition.unlock()
        }
    }

    /// The thread ends once the jobs given before are run.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while !named || (jobs.isEmpty && !finished) { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }
}
