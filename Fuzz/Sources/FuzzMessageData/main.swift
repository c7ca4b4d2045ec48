import DeskKitInvariants

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzTarget.messageData.fuzz(start, count)
}
