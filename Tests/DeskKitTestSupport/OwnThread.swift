import Foundation

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
