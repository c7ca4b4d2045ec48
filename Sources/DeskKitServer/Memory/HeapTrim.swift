import DeskKitTime
import ServiceLifecycle

/// Gives the memory a peak left in glibc's arenas back to the system: a service of the server's application.
///
/// After a burst, the hang of an API or a flood of slow clients, what the server allocated for it is freed, but
/// glibc keeps the pages in the arenas of the threads that held them (one arena a thread, up to eight a core),
/// where long-lived allocations fence them in and `free` never trims them: the process stays a step higher after
/// each incident, which is what a container's memory limit sees. Every ``Policy/interval`` this reads the resident
/// memory and the heap; when the allocator keeps ``Policy/freed`` bytes freed and the process has grown by
/// ``Policy/growth`` since the last trim (or its start), it asks glibc for `malloc_trim` at the first quiet moment
/// — no job running, no image downloaded — of the next interval, or at its end if none comes (a server that is
/// never idle still gets its memory back). A trim takes each arena's lock while it gives the arena's free pages
/// back — 6 ms for 95 MiB freed in 120,000 chunks over four arenas, measured in C on the development machine; a
/// fault run's arenas keep under 13 MiB — counted in `deskkit_heap_trim_seconds_total`, with
/// `deskkit_heap_trims_total{moment}` and `deskkit_heap_trimmed_bytes_total`. Without glibc or `/proc` it does
/// nothing.
final class HeapTrim: Service {
    /// When a trim is asked for.
    struct Policy: Sendable, Hashable {
        /// How often the figures are read: 5 seconds.
        var interval: Duration = .seconds(5)
        /// How much freed memory glibc keeps before a trim is due: 4 MiB. In the fault run (`Scripts/faults.sh`)
        /// the live heap stays near its value after warm-up (6 MiB) while its arenas come to keep 8 MiB freed.
        var freed = 4 << 20
        /// How much the resident memory must have grown since the last trim (or the start): 1 MiB. A trim gives
        /// back whole free pages only, and the steady state takes some of them again: without growth, another
        /// trim would give nothing.
        var growth = 1 << 20
        /// How often a due trim looks for a quiet moment: every 100 ms, for one interval at most.
        var quietCheck: Duration = .milliseconds(100)

        /// Whether `memory` asks for a trim, `floor` being the resident bytes after the last one.
        func isDue(_ memory: ProcessMemory, floor: Int) -> Bool {
            guard let resident = memory.resident, let free = memory.heapFree else { return false }
            return resident >= floor + growth && free >= freed
        }
    }

    private let policy: Policy
    private let clock: ServiceClock
    private let metrics: ServerMetrics
    private let isQuiet: @Sendable () async -> Bool

    /// Trims when `policy` says, preferring a moment `isQuiet` answers true (no job running, no image downloaded).
    init(
        policy: Policy = Policy(), clock: ServiceClock, metrics: ServerMetrics,
        isQuiet: @escaping @Sendable () async -> Bool
    ) {
        self.policy = policy
        self.clock = clock
        self.metrics = metrics
        self.isQuiet = isQuiet
    }

    /// Reads the figures and trims until a graceful shutdown or cancellation.
    func run() async {
        await cancelWhenGracefulShutdown { [self] in
            try? await watch()
        }
    }

    /// The readings and trims, until cancelled.
    private func watch() async throws {
        let start = ProcessMemory.now()
        guard var floor = start.resident, start.heapFree != nil else { return }  // a system that does not tell
        while true {
            try await clock.sleep(policy.interval)
            let memory = ProcessMemory.now()
            floor = min(floor, memory.resident ?? floor)
            guard policy.isDue(memory, floor: floor) else { continue }
            floor = trim(quiet: try await waitForQuiet())
        }
    }

    /// Waits for a quiet moment, one interval at most: whether one came.
    private func waitForQuiet() async throws -> Bool {
        let end = clock.elapsed() + policy.interval
        while !(await isQuiet()) {
            guard clock.elapsed() < end else { return false }
            try await clock.sleep(policy.quietCheck)
        }
        return true
    }

    /// Trims the heap and counts it (`quiet`: at a quiet moment); answers the resident bytes after.
    func trim(quiet: Bool) -> Int {
        let before = ProcessMemory.residentBytes() ?? 0
        let started = ContinuousClock.now
        _ = ProcessMemory.trimHeap()
        let took = started.duration(to: .now)
        let after = ProcessMemory.residentBytes() ?? before
        metrics.heapTrimmed(bytes: max(0, before - after), took: took, quiet: quiet)
        return after
    }
}
