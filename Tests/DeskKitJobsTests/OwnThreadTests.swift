import DeskKitTestSupport
import Foundation
import Testing

/// The trait that keeps a test's seconds of CPU off the cooperative pool (`.onThreadOfItsOwn`): the test runs on
/// the thread of its trait, before and after it awaits, and a test without it does not.
@Suite("A test on a thread of its own")
struct OwnThreadTests {
    /// The thread the caller runs on (`Thread.current` is not for async code; this function is not async).
    static func threadName() -> String? { Thread.current.name }

    @Test(.onThreadOfItsOwn) func aMarkedTestRunsOnItsOwnThread() {
        #expect(Self.threadName() == OnThreadOfItsOwn.threadName)
    }

    @Test(.onThreadOfItsOwn, arguments: [1, 2])
    func anAwaitComesBackToIt(_ child: Int) async {
        await Task.yield()
        #expect(Self.threadName() == OnThreadOfItsOwn.threadName)
        let inChild = await withTaskGroup { group in
            group.addTask { Self.threadName() }
            return await group.next() ?? nil
        }
        #expect(inChild == OnThreadOfItsOwn.threadName, "a child task prefers its parent's executor")
    }

    @Test func anUnmarkedTestRunsOnThePool() {
        #expect(Self.threadName() != OnThreadOfItsOwn.threadName)
    }
}
