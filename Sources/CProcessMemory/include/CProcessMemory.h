// The process's memory as the system and glibc's allocator see it, for DeskKitServer's `/metrics` and its trims
// after a peak. A C file because `<malloc.h>` is not in Swift's Glibc module and `mallinfo2` returns a struct.
// Where there is no glibc (macOS, musl), the heap's figures are unknown and a trim does nothing.
#ifndef DESKKIT_CPROCESSMEMORY_H
#define DESKKIT_CPROCESSMEMORY_H
#include <stdint.h>

/// The process's resident memory in bytes (`/proc/self/statm`), or -1 where it cannot be read.
int64_t deskkit_resident_bytes(void);

/// glibc's heap (`mallinfo2`): the bytes handed out by `malloc` and not yet freed (`in_use`, mapped blocks
/// included) and the bytes freed that the allocator keeps in its arenas (`free_held`). Returns 0, or -1 without
/// glibc (both left untouched). Walks every arena's free lists under their locks: a scrape's cost, not a hot path's.
int deskkit_heap_figures(uint64_t *in_use, uint64_t *free_held);

/// glibc's `malloc_trim(0)`: the free pages of every arena given back to the system (their top trimmed, the
/// whole free pages inside them advised away). Returns 1 when memory was given back, 0 when none was or without
/// glibc.
int deskkit_heap_trim(void);

#endif
