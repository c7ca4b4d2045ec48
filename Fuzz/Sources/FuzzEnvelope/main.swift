import DeskKitInvariants

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    // libFuzzer's input, as the span the checks read (the one unsafe step, here at the C boundary).
    FuzzTarget.envelope.fuzz(Span(_unsafeElements: UnsafeBufferPointer(start: start, count: count)))
}
