/// The tests that load the whole machine — several servers and a database under load, a database stopped
/// and started, processes killed — run one at a time, each within the others' quiet: Swift Testing runs
/// every test of the process at once, and on a 2-core machine two of them together starve each other's
/// database past its timeouts, which breaks what they check (every job ended once) rather than the code.
/// Lighter tests still run beside them.
public enum HeavyTests {
    private static let gate = Gate()

    /// Runs `body` when no other heavy test runs.
    public static func oneAtATime<T>(_ body: () async throws -> T) async throws -> T {
        await gate.enter()
        do {
            let result = try await body()
            await gate.leave()
            return result
        } catch {
            await gate.leave()
            throw error
        }
    }

    private actor Gate {
        private var busy = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func enter() async {
            guard busy else {
                busy = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func leave() {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
    }
}
