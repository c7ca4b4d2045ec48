import DeskKitTestSupport
import Foundation
import Testing

/// The trait that keeps a synchronous test's seconds of CPU off the cooperative pool (`.onThreadOfItsOwn`): the
/// test runs on the thread of its trait, and a test without it does not.
@Suite("A test on a thread of its own")
struct OwnThreadTests {
    /// The thread the caller runs on (`Thread.current` is not for async code; this function is not async).
    static func threadName() -> String? { Thread.current.name }

    @Test(.onThreadOfItsOwn) func aMarkedTestRunsOnItsOwnThread() {
        #expect(Self.threadName() == OnThreadOfItsOwn.threadName)
    }

    @Test func anUnmarkedTestRunsOnThePool() {
        #expect(Self.threadName() != OnThreadOfItsOwn.threadName)
    }
}
