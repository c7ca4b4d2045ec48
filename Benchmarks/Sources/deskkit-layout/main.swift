#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// deskkit-layout: checks that decoded messages are built in place (see LayoutCheck); exit status 1 if not.
// Run optimized, as CI does: swift run -c release --package-path Benchmarks deskkit-layout
if !LayoutCheck.run() { exit(1) }
