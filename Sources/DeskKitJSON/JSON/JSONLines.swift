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

/// Reads a string member out of JSON lines, one line after another, without building a `JSONValue` per
/// line: each line is parsed into a tape whose memory is kept for the next.
package struct JSONLineReader {
    private let storage = TapeStorage(capacity: 64)

    package init() {}

    /// Calls `body` with the UTF-8 bytes of the string member `key` of `line` (escapes resolved, already
    /// validated: no `String` is made), or with nil when the line is not an object or the member is absent
    /// or not a string; returns the syntax error, without calling `body`, when the line is not JSON.
    /// (Not generic: called once a line from other modules, a generic result would be built at run time.)
    package func withString(
        _ key: StaticString, in line: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>?) -> Void
    ) -> JSONSyntaxError? {
        switch JSONTape.parse(line, limits: .default, into: storage) {
        case .failure(let error):
            return error
        case .success(let tape):
            guard tape.kind(0) == .object, let v = tape.member(0, key), tape.kind(v) == .string else {
                body(nil)
                return nil
            }
            body(tape.utf8(at: v))
            return nil
        }
    }
}
