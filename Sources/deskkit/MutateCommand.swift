import ArgumentParser
import DeskKitInvariants
import DeskKitModel

struct MutateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mutate",
        abstract: "Write malformed variants of valid payloads or envelopes, for testing clients.",
        discussion: """
            Reads JSON lines of valid message envelopes or data payloads (FILE, "-" for standard input, or the \
            sample conversation when FILE is absent) and writes COUNT variants, one JSON line each: \
            {"mutation", "source_line", "text", "base64"}; text is null when the variant is not UTF-8. Mutations: \
            truncate, type_flip, base64_damage, wrong_encoding, huge_number, negative_number, deep_nesting, \
            surrogate, nul, duplicate_key, long_custom_type, drop_field, empty_data. The same input, seed and \
            count give the same variants.
            """
    )

    @Argument(
        help: "JSON lines of valid envelopes or payloads (\"-\": standard input; default: the demo's conversation).")
    var file: String?

    @Option(name: .long, help: "How many variants to write.")
    var count = 100

    @Option(name: .long, help: "The seed.")
    var seed: UInt64 = 1

    func validate() throws {
        if count < 0 { throw ValidationError("--count must not be negative") }
    }

    @OptionGroup var lineOptions: LineOptions

    func run() throws {
        var inputs: [String] = []
        if let file {
            var reader = try LineReader(path: file, options: lineOptions)
            try reader.forEachNonBlankLine({ line, _ in inputs.append(String(decoding: line, as: UTF8.self)) }) {
                var err = Output.stderr()
                err.line($0.text)
                err.flush()
            }
        } else {
            inputs = DemoFiles.conversation
        }
        // Made and written one at a time: the first line is out at once and memory stays constant.
        let variants = Mutator(seed: seed).stream(of: inputs, count: count)
        if !variants.hasInputs, count > 0 { throw ValidationError("no valid JSON line to mutate") }
        var out = Output.stdout()
        defer { out.flush() }
        for v in variants {
            let utf8 = UTF8Validation.isValid(v.bytes)
            let json: JSONValue = [
                "mutation": .string(v.mutation.rawValue), "source_line": .integer(Int64(v.source + 1)),
                "text": utf8 ? .string(String(decoding: v.bytes, as: UTF8.self)) : .null,
                "base64": .string(Base64.encode(v.bytes)),
            ]
            out.line(json)
        }
    }
}
