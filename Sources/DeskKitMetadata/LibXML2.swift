import CLibXML2

/// libxml2's process-wide state, set up once.
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
}
