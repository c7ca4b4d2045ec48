import CLibXML2

/// libxml2's process-wide state, set up once, and the calls the push parser makes on it.
enum LibXML2 {
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    static func initialize() { _ = initialized }

    /// Encoding-conversion errors go to the thread's global handler, not the parser's: silence them.
    static func silenceErrors() {
        xmlSetStructuredErrorFunc(nil) { _, _ in }
    }

    /// The libxml2 2.9 look-ahead workaround, before each slice: its push parser resumes the look-ahead for
    /// `>` and `<` at `checkIndex`, and can resume in the wrong quote state after its buffer moved — then it
    /// waits for the end of the page. Starting the look-ahead afresh at each slice is always correct.
    static func restartLookAhead(_ context: htmlParserCtxtPtr) {
        context.pointee.checkIndex = 0
        context.pointee.hasPErefs = 0
    }

    /// Gives `bytes` to the push parser; `terminate`: they are the last.
    static func parseChunk(_ context: htmlParserCtxtPtr, _ bytes: UnsafeBufferPointer<UInt8>, terminate: Bool) {
        let start = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
        htmlParseChunk(context, bytes.isEmpty ? nil : start, Int32(bytes.count), terminate ? 1 : 0)
    }
}
