#include "CProcessMemory.h"
#include <stdio.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int64_t deskkit_resident_bytes(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL) return -1;
    long long size = 0, resident = -1;
    int read = fscanf(f, "%lld %lld", &size, &resident);
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    if (read != 2 || resident < 0 || page <= 0) return -1;
    return (int64_t)resident * page;
}

int deskkit_heap_figures(uint64_t *in_use, uint64_t *free_held) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    struct mallinfo2 info = mallinfo2();
    *in_use = (uint64_t)info.uordblks + (uint64_t)info.hblkhd;
    *free_held = (uint64_t)info.fordblks;
    return 0;
#else
    (void)in_use;
    (void)free_held;
    return -1;
#endif
}

int deskkit_heap_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}
