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

    @OptionGroup var lineOptions: LineOptions

    @Argument(help: "The file to read (default: standard input).")
    var file: String?

    func run() throws {
        var out = Output.stdout()
        var err = Output.stderr()
        defer {
            out.flush()
            err.flush()
        }
        var reader = try LineReader(path: file, options: lineOptions)
        var decoder = DeskMessageDecoder()
        var skipped = 0
        try reader.forEachNonBlankLine({ line, number in
            switch decoder.visibility(of: line, for: audience) {
            case .failure(let problem):  // not a JSON object; anything else is a message
                skipped += 1
                let notJSON = problem.code != .wrongType  // a syntax error, not a value of another type
                err.line("line \(number): skipped: \(notJSON ? "not JSON: " : "")\(problem.message)")
            case .success(let visibility):
                guard visibility.isVisible else { break }
                out.write(line)
                out.write(CollectionOfOne(0x0A))
            }
        }) {
            skipped += 1
            err.line($0.text)
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
