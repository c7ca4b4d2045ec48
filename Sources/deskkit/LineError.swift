import DeskKitModel

/// A line that could not be read, in the one shape every command uses:
/// `{"error": {"code", "message", "line"}}` on standard output for commands that answer each line, and
/// `line N: message` on standard error for the others.
struct LineError {
    var code: String
    var message: String
    var line: Int

    static func tooLong(line: Int, limit: Int) -> LineError {
        LineError(code: "line_too_long", message: "longer than \(limit) bytes (--max-line-bytes); skipped", line: line)
    }

    static func notJSON(line: Int, _ error: JSONSyntaxError) -> LineError {
        LineError(code: "not_json", message: "not JSON: \(error)", line: line)
    }

    /// A JSON line without the member the command reads.
    static func missing(_ member: String, line: Int) -> LineError {
        LineError(code: "missing_field", message: "expected an object with a string \"\(member)\"", line: line)
    }

    var jsonValue: JSONValue {
        ["error": ["code": .string(code), "message": .string(message), "line": .integer(Int64(line))]]
    }

    var text: String { "line \(line): \(message)" }
}
