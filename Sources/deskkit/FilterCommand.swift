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
    @OptionGroup var threadOptions: ThreadOptions

    @Argument(help: "The file to read (default: standard input).")
    var file: String?

    func run() throws {
        let audience = audience
        let skipped = try LineBatches.answer(
            file, lineOptions, threadOptions, maxLines: 8192, makeState: { DeskMessageDecoder() },
            work: { decoder, line, number, answer in
                switch decoder.visibility(of: line, for: audience) {
                case .failure(let problem):  // not a JSON object; anything else is a message
                    answer.failures += 1
                    let notJSON = problem.code != .wrongType  // a syntax error, not a value of another type
                    answer.errorLine("line \(number): skipped: \(notJSON ? "not JSON: " : "")\(problem.message)")
                case .success(let visibility):
                    guard visibility.isVisible else { break }
                    answer.out.append(contentsOf: line)
                    answer.out.append(0x0A)
                }
            },
            overlong: { error, answer in
                answer.failures += 1
                answer.errorLine(error.text)
            })
        if skipped > 0 {
            var err = Output.stderr()
            err.line("\(skipped) line\(skipped == 1 ? "" : "s") skipped")
            err.flush()
            throw ExitStatus.someInputsFailed.exitCode
        }
    }
}

extension Audience: ExpressibleByArgument {}
