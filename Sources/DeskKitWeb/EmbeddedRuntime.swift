// What Embedded Swift's standard library leaves to the platform and WebAssembly has no runtime for. Natively the
// runtime has it and this is not built.
#if hasFeature(Embedded)
    /// Turning text into a `Double` (`Double(String)`, for JSON numbers), with the C library's `strtod`
    /// (wasi-libc's, in the C locale), as Swift's own runtime does elsewhere.
    @_extern(c, "strtod")
    func cStrtod(_ text: UnsafePointer<CChar>, _ end: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Double

    /// The number `text` begins with, written to `result`; where it ends, or nil when it begins with none.
    @_cdecl("_swift_stdlib_strtod_clocale")
    func swiftStdlibStrtod(_ text: UnsafePointer<CChar>, _ result: UnsafeMutablePointer<Double>)
        -> UnsafePointer<CChar>?
    {
        var end: UnsafeMutablePointer<CChar>?
        result.pointee = cStrtod(text, &end)
        guard let end, UnsafePointer(end) != text else { return nil }
        return UnsafePointer(end)
    }

    /// WASI's randomness (`crypto.getRandomValues` in `Web/index.mjs`).
    @_extern(wasm, module: "wasi_snapshot_preview1", name: "random_get")
    func wasiRandomGet(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int32

    /// The seed of `Hasher`, straight from WASI. Nothing in the module hashes today (duplicate keys are found by
    /// sorting); a set or dictionary that comes back would otherwise bring wasi-libc's `arc4random_buf`, its
    /// `assert`, and with it `fprintf` and the whole of `printf` (13 KB).
    @_cdecl("arc4random_buf")
    func arc4randomBuf(_ buffer: UnsafeMutableRawPointer?, _ count: Int) {
        guard let buffer, count > 0 else { return }
        _ = wasiRandomGet(buffer, count)  // the import always answers (a failure would leave a fixed seed)
    }
#endif
