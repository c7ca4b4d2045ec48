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
#endif
