/// JSON lines as the `deskkit` commands and the server's `/v1/decode` read them.
package enum JSONLines {
    /// Whether a line holds nothing but spaces, tabs and carriage returns: such lines are skipped (their
    /// numbers still count).
    package static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Calls `body` with each line of `text` that is not blank (without its `\n`) and its 1-based number.
    package static func forEachNonBlankLine(
        in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void
    ) rethrows {
        var start = 0
        var number = 0
        for i in 0...text.count where i == text.count || text[i] == 0x0A {
            let line = UnsafeBufferPointer(rebasing: text[start..<i])
            start = i + 1
            number += 1
            if !isBlank(line) { try body(line, number) }
        }
    }
}
