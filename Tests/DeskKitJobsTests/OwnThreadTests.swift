import DeskKitTestSupport
import Foundation
import Testing

/// What keeps a test's seconds of CPU off the cooperative pool (`onThreadOfItsOwn`): its work runs on the new
/// thread, whole, and an expectation in it is the test's.
@Suite("Work on a thread of its own")
struct OwnThreadTests {
    /// The thread the caller runs on (`Thread.current` is not for async code; this function is not async).
    static func threadName() -> String? { Thread.current.name }

    @Test func theWorkRunsOnItsOwnThreadAsPartOfTheTest() async throws {
        let seen = try await onThreadOfItsOwn {
            // Long enough for the scheduler to move a task that could move (it cannot: no suspension).
            var names: Set<String?> = [Self.threadName()]
            var sum = 0
            for i in 0..<2_000_000 {
                sum &+= i
                if i % 100_000 == 0 { names.insert(Self.threadName()) }
            }
            return (names: names, test: Test.current?.name, sum: sum)
        }
        #expect(seen.names == [ownThreadName])
        #expect(seen.test == "theWorkRunsOnItsOwnThreadAsPartOfTheTest()")
        #expect(Self.threadName() != ownThreadName)
    }

    @Test func aTestRunsOnThePool() {
        #expect(Self.threadName() != ownThreadName)
    }
}
