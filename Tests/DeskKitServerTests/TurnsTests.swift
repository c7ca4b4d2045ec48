import DeskKitTestSupport
import Testing

/// The queue the heavy tests take turns in (DeskKitTestSupport).
@Suite("Heavy tests' turns")
struct TurnsTests {
    private actor Log {
        var lines: [String] = []
        var running = 0
        func began(_ line: String) -> Int {
            lines.append(line)
            running += 1
            return running
        }
        func ended(_ line: String) {
            lines.append(line)
            running -= 1
        }
    }

    /// Work runs one at a time, and each limit counts from the work's own turn: the second waits for the first
    /// longer than its own limit, and is not cut short for it.
    @Test func eachLimitCountsFromItsTurn() async throws {
        let (turns, log) = (Turns(), Log())
        let (first, release) = AsyncStream.makeStream(of: Void.self)
        async let one: Void = turns.run(within: .seconds(60)) {
            _ = await log.began("first")
            for await _ in first {}
            await log.ended("first")
        }
        try await until("the first runs") { await log.running == 1 }
        async let two: Void = turns.run(within: .milliseconds(100)) {
            #expect(await log.began("second") == 1, "alone")
            await log.ended("second")
        }
        // Time passing is the subject: the second waits past its own limit while the first runs.
        try await ContinuousClock().sleep(for: .milliseconds(300))
        release.finish()
        _ = try await (one, two)
        #expect(await log.lines == ["first", "first", "second", "second"])
    }

    /// Work that never ends is cancelled at its limit, with an error that says so.
    @Test func hungWorkIsCancelledAtItsLimit() async throws {
        let error = await #expect(throws: Turns.TimeLimitExceeded.self) {
            try await Turns().run(within: .milliseconds(100)) { await untilCancelled() }
        }
        #expect(error?.description == "ran past its limit of 0.1 seconds from its turn, and was cancelled")
    }
}
