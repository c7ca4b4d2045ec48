import Foundation
import Testing

/// `body`'s answer, `body` run on a new thread while the caller's task is suspended: for a wait that blocks its
/// thread — a child process's exit, a pipe read to its end, a browser's screenshot.
///
/// Swift concurrency runs every suite's tasks on a cooperative pool of as many threads as the machine has cores
/// (two here and on CI). A test that blocks one of them for the seconds a child process takes under load holds up
/// every other suite's continuations meanwhile — a deadline's answer, a server's response, a store's result — and
/// a test that is right fails on time it never had.
public func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Runs each test it marks on a thread of its own (``onThreadOfItsOwn``'s reason): for a test whose work is seconds
/// of CPU without a suspension — a sweep over a corpus, every split of a text. On the cooperative pool such a test
/// holds one of its two threads for its whole run, and two at once hold both: every async test's continuations
/// (a server's answer, a store's result, a look of ``until(_:within:_:)``) wait behind them. On a thread of its
/// own the system shares the cores between it and the pool.
///
/// The test's task prefers an executor whose one thread runs it (`withTaskExecutorPreference`): a synchronous
/// test's body runs there whole. Not for an async test: beside `stress-ng` one was seen back on the pool after
/// `Task.yield()`, as swiftlang/swift#74395 (open) reports — `Task.yield()` and `Task.sleep` do not keep a task's
/// executor preference.
public struct OnThreadOfItsOwn: TestTrait, SuiteTrait, TestScoping {
    /// The name of the threads the tests it marks run on (15 bytes: Linux keeps no more).
    public static let threadName = "own test thread"

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self  // each case of a test, not the suite around it
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = ThreadExecutor()
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OnThreadOfItsOwn {
    /// The test runs on a thread of its own, off the cooperative pool (``OnThreadOfItsOwn``).
    public static var onThreadOfItsOwn: Self { Self() }
}

/// A task executor with one thread of its own, which runs the jobs given to it in turn until ``finish()``; a job
/// given after that (a continuation of the test's task resumed late) goes to the global executor.
private final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []  // guarded by `condition`
    private var finished = false  // guarded by `condition`

    init() {
        Thread { [self] in
            Thread.current.name = OnThreadOfItsOwn.threadName  // set from the thread itself, as Linux names threads
            run()
        }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        condition.lock()
        if finished {
            condition.unlock()
            globalConcurrentExecutor.enqueue(job)
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
            while jobs.isEmpty && !finished { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
