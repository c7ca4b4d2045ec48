import ArgumentParser
import DeskKitModel

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check messages or payloads strictly and print every problem with its JSON path.",
        discussion: """
            Reads lines (standard input when FILE is absent or "-"). A line may be a message envelope \
            (a JSON object with any of type, message_id, message, custom_type, data), a payload (a JSON object, \
            or a JSON string holding one), or a bare data string (raw or base64 JSON). Each problem is printed \
            as `line N: $.path: reason [code]`; paths below $.data are inside the decoded data. Checks: JSON \
            syntax, trailing garbage, invalid base64, wrong types, missing required fields, CSAT score 1–5, \
            unknown states and message types, custom_type over 128 characters, duplicate keys. \
            Exit status 1 when any problem was found.
            """
    )

    @Argument(help: "The file to read (default: standard input).")
    var file: String?

    @Option(
        name: .long,
        help: """
            desk (default: an envelope, a payload or a data string, told apart by their members), or a schema's name: \
            desk-message, desk-data, sendbird-webhook, pyrus-webhook, pyrus-auth, livetex-webhook (the strict \
            validation `deskkit schema NAME` equals).
            """)
    var format: PayloadFormat = .desk

    @Flag(
        name: .long,
        help: "Answer each input line with one JSON line {\"line\", \"valid\", \"problems\"} instead of text.")
    var jsonl = false

    @OptionGroup var lineOptions: LineOptions

    func run() throws {
        var out = Output.stdout()
        defer { out.flush() }
        var reader = try LineReader(path: file, options: lineOptions)
        var problemCount = 0
        var lines = 0
        try reader.forEachNonBlankLine({ line, number in
            lines += 1
            let problems = format == .desk ? DeskValidation.problems(inLine: line) : format.decode(line, strict: true).1
            problemCount += problems.count
            if jsonl {
                out.line([
                    "line": .integer(Int64(number)), "valid": .bool(problems.isEmpty),
                    "problems": .array(problems.map(\.jsonValue)),
                ])
            } else {
                for problem in problems {
                    out.line("line \(number): \(problem.path): \(problem.message) [\(problem.code)]")
                }
            }
        }) {
            lines += 1
            problemCount += 1
            if jsonl { out.line($0.jsonValue) } else { out.line("\($0.text) [\($0.code)]") }
        }
        if !jsonl {
            out.line(
                "\(lines) line\(lines == 1 ? "" : "s") checked, \(problemCount) problem\(problemCount == 1 ? "" : "s")")
        }
        if problemCount > 0 {
            out.flush()
            throw ExitStatus.someInputsFailed.exitCode
        }
    }
}
