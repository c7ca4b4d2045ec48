import DeskKitTime
#if canImport(Glibc)
    import Glibc
#endif
import Synchronization
import Testing

@testable import DeskKitServer

/// What a burst leaves in glibc's arenas is given back (``HeapTrim``): when it is due, that it waits for a quiet
/// moment, and that a trim gives a real peak's pages back.
@Suite("Heap trims")
struct HeapTrimTests {
    @Test func aTrimIsDueWhenMuchIsFreedAndTheProcessGrew() {
        let policy = HeapTrim.Policy()
        let mib = 1 << 20
        #expect(policy.isDue(ProcessMemory(resident: 60 * mib, heapInUse: 6 * mib, heapFree: 7 * mib), floor: 50 * mib))
        // Grown, but the growth is in use (a cache filling): little to give back.
        #expect(
            !policy.isDue(ProcessMemory(resident: 60 * mib, heapInUse: 13 * mib, heapFree: 3 * mib), floor: 50 * mib))
        // Much freed, but the process is where the last trim left it (its pages given back already).
        #expect(
            !policy.isDue(ProcessMemory(resident: 50 * mib, heapInUse: 3 * mib, heapFree: 40 * mib), floor: 50 * mib))
        // A system that does not tell.
        #expect(!policy.isDue(ProcessMemory(resident: nil, heapInUse: nil, heapFree: nil), floor: 0))
        #expect(policy.interval == .seconds(5) && policy.freed == 4 * mib && policy.growth == mib)
    }

    #if canImport(Glibc)
        /// 64 MiB in blocks of 1 KiB, one in 64 kept: the freed ones lie between kept ones, below their arena's top,
        /// where glibc's `free` never gives pages back. The trim does — asked page by page (`mincore`), not by the
        /// process's resident figure, which the tests running beside this one move — and counts it.
        @Test func aTrimGivesAPeaksPagesBack() throws {
            let metrics = ServerMetrics()
            let trim = HeapTrim(clock: .system, metrics: metrics) { true }
            let count = 65_536
            let blocks = (0..<count).map { _ in
                let block = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 8)
                block.initializeMemory(as: UInt8.self, repeating: 1, count: 1024)
                return block
            }
            let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
            let pageOf = { (block: UnsafeMutableRawPointer) in UInt(bitPattern: block) & ~(page - 1) }
            // The pages of freed blocks away from every kept one (whose page, and the next, hold the live chunk and
            // the free chunk's header after it).
            let kept = Set(
                stride(from: 0, to: count, by: 64).flatMap { [pageOf(blocks[$0]), pageOf(blocks[$0]) + page] })
            let freed = Set(blocks.enumerated().filter { $0.offset % 64 != 0 }.map { pageOf($0.element) })
                .subtracting(kept)
            func resident() -> Int {
                var vector: UInt8 = 0
                return freed.count {
                    mincore(UnsafeMutableRawPointer(bitPattern: $0), Int(page), &vector) == 0 && vector & 1 == 1
                }
            }
            for (i, block) in blocks.enumerated() where i % 64 != 0 { block.deallocate() }
            defer { for i in stride(from: 0, to: count, by: 64) { blocks[i].deallocate() } }
            let before = ProcessMemory.now()
            let peak = 63 * count / 64 * 1024
            #expect((before.heapFree ?? 0) >= peak * 3 / 4, "\(before)")
            let residentBefore = resident()
            #expect(residentBefore >= freed.count * 3 / 4, "\(residentBefore) of \(freed.count) freed pages resident")
            _ = trim.trim(quiet: true)
            let residentAfter = resident()
            #expect(
                residentAfter <= residentBefore / 2, "\(residentAfter) of \(residentBefore) freed pages still resident")
            let exposition = try #require(metrics.exposition)
            let text = exposition()
            #expect(text.contains(#"deskkit_heap_trims_total{moment="quiet"} 1"#), "\(text)")
            #expect(
                text.contains("deskkit_heap_trimmed_bytes_total") && text.contains("deskkit_heap_trim_seconds_total"))
        }

        /// A due trim waits while a job runs or an image is downloaded and is made once they end; on a server that
        /// stays busy, at the end of the interval it waited.
        @Test func aDueTrimWaitsForAQuietMomentOneIntervalAtMost() async throws {
            final class Quiet: Sendable { let now = Atomic(false) }
            let quiet = Quiet()
            let metrics = ServerMetrics()
            // Due at every reading (nothing asked of the figures), read every 5 s: the margins (4 s each way) hold
            // on a loaded machine, whose tasks may wake late.
            let trim = HeapTrim(
                policy: .init(interval: .seconds(5), freed: 0, growth: 0, quietCheck: .milliseconds(10)),
                clock: .system, metrics: metrics
            ) { quiet.now.load(ordering: .relaxed) }
            func trims(_ moment: String) -> Int {
                let text = metrics.exposition?() ?? ""
                let prefix = #"deskkit_heap_trims_total{moment="\#(moment)"} "#
                return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap {
                    Int($0.dropFirst(prefix.count))
                } ?? 0
            }
            func waitFor(_ condition: () -> Bool) async throws {
                let clock = ContinuousClock()
                let deadline = clock.now + .seconds(30)
                while !condition(), clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            }
            try await withThrowingTaskGroup { group in
                group.addTask { await trim.run() }
                // Due at 5 s, busy: it waits until 10 s at most.
                try await Task.sleep(for: .seconds(6))
                #expect(trims("quiet") + trims("busy") == 0, "trimmed while busy before its wait ended")
                quiet.now.store(true, ordering: .relaxed)
                try await waitFor { trims("quiet") == 1 }
                #expect(trims("quiet") == 1 && trims("busy") == 0)
                quiet.now.store(false, ordering: .relaxed)
                try await waitFor { trims("busy") == 1 }
                #expect(trims("busy") == 1, "a busy server's trim is never made")
                group.cancelAll()
            }
        }
    #endif
}
