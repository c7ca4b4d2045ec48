import ArgumentParser
import DeskKitModel

struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Copy the message envelopes an audience may see, byte for byte, in order.",
        discussion: """
            Reads JSON lines of message envelopes (standard input when FILE is absent or "-") and writes \
            the lines of the messages visible to the audience unchanged. Customers do not see Desk system \
            messages; agents see everything. A line that is not a JSON object is reported on standard error \
            with its line number and skipped; the exit status is then 1.
            """
    )

    @Option(name: .long, help: "Whose view to produce: customer or agent.")
    var audience: Audience

    @Argument(help: "The file to read (default: standard input).")
    var file: String?

    func run() throws {
        var out = Output.stdout()
        var err = Output.stderr()
        defer {
            out.flush()
            err.flush()
        }
        var reader = try LineReader(path: file)
        var skipped = 0
        try reader.forEachNonBlankLine { line, number in
            switch JSONValue.parseResult(line) {
            case .success(let json) where json.objectValue != nil:
                if DeskMessage(json: json).isVisible(to: audience) {
                    out.write(line)
                    out.write(CollectionOfOne(0x0A))
                }
            case .success(let json):
                skipped += 1
                err.line("line \(number): skipped: a message is a JSON object, found \(json.typeName)")
            case .failure(let error):
                skipped += 1
                err.line("line \(number): skipped: not JSON: \(error)")
            }
        }
        if skipped > 0 {
            err.line("\(skipped) line\(skipped == 1 ? "" : "s") skipped")
            out.flush()
            err.flush()
            throw ExitCode(1)
        }
    }
}

extension Audience: ExpressibleByArgument {}
