import DeskKitInvariants

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzTarget.address.fuzz(start, count)
}
