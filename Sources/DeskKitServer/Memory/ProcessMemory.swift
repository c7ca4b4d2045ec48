import CProcessMemory

/// The process's memory as the system and the allocator see it: what `/metrics` shows and ``HeapTrim`` reads.
struct ProcessMemory: Sendable, Hashable {
    /// Resident bytes (`/proc/self/statm`): what a container's memory limit and an operator's alert see.
    var resident: Int?
    /// Bytes handed out by `malloc` and not yet freed (glibc's `mallinfo2`: arenas and mapped blocks).
    var heapInUse: Int?
    /// Bytes freed that glibc keeps in its arenas for the next allocations: what a peak leaves behind. Pages of
    /// them given back by a trim still count here (the allocator keeps the chunks, the system the pages).
    var heapFree: Int?

    /// The figures now: nil for what this system does not tell (no `/proc`, no glibc). Reading the heap walks
    /// every arena's free chunks: ``residentBytes()`` alone is a file's read.
    static func now() -> ProcessMemory {
        var inUse: UInt64 = 0
        var free: UInt64 = 0
        let known = deskkit_heap_figures(&inUse, &free) == 0
        return ProcessMemory(
            resident: residentBytes(), heapInUse: known ? Int(clamping: inUse) : nil,
            heapFree: known ? Int(clamping: free) : nil)
    }

    /// The resident bytes now, or nil without `/proc`.
    static func residentBytes() -> Int? {
        let resident = deskkit_resident_bytes()
        return resident >= 0 ? Int(resident) : nil
    }

    /// Asks glibc to give the free pages of every arena back to the system (`malloc_trim(0)`); answers whether
    /// it gave any. Takes each arena's lock while it walks it: for a quiet moment (``HeapTrim``).
    static func trimHeap() -> Bool { deskkit_heap_trim() == 1 }
}
