// DeskKitCards formats numbers, times and plurals with ICU's C API (Debian's libicu-dev), which Apple's SDKs do
// not offer to apps: on Apple's systems, say so here rather than as a missing header.
#if canImport(Darwin)
    #error("DeskKitCards is built on Linux only: it needs ICU's C API, which Apple's SDKs do not offer to apps")
#endif
