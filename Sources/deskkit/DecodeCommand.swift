import ArgumentParser
import DeskKitCards
import DeskKitModel
import Foundation

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode message data, or a stream of message envelopes, into typed JSON.",
        discussion: """
            deskkit decode DATA
              Reads one `data` string (raw JSON or base64 JSON) and prints {"kind", "encoding", "value", "problems"}.

            deskkit decode --messages [FILE]
              Reads JSON lines of message envelopes (standard input when FILE is absent or "-") and prints one \
            line each: {"message_id", "kind", "encoding", "visible_to_customer", "ticket_closed", "value", "error"}. \
            kind is one of url_preview, closure_inquiry, customer_satisfaction, system_message, notification, \
            bot_answers, plain, unknown, malformed. Blank lines are skipped; a line that is not JSON is answered \
            as malformed.
            """
    )

    @Flag(name: .long, help: "Read JSON lines of message envelopes instead of one data string.")
    var messages = false

    @Option(name: .long, help: "The custom_type of the message the data belongs to (decode DATA only).")
    var customType: String?

    @Option(
        name: .long,
        help:
            "desk (default), desk-message, desk-data, sendbird-webhook, pyrus-webhook, pyrus-auth or livetex-webhook: the formats but desk read JSON bodies (DATA, or lines with --messages)."
    )
    var format: PayloadFormat = .desk

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --messages and a FILE: also write the conversation as the page a client shows (ConversationPage: what the customer and the agent see, as the web module's renderMessage shows each message) to this file, - for standard output instead of the lines.",
            valueName: "page.html"))
    var html: String?

    @OptionGroup var interfaceLanguage: InterfaceLanguageOption

    @OptionGroup var lineOptions: LineOptions
    @OptionGroup var threadOptions: ThreadOptions

    @Argument(help: "The data string; with --messages, the file to read (default: standard input).")
    var input: String?

    func validate() throws {
        if !messages && input == nil { throw ValidationError("give a DATA string, or --messages to read envelopes") }
        if messages && customType != nil {
            throw ValidationError("--custom-type goes with decode DATA, not --messages")
        }
        if html != nil && (!messages || input == nil || input == "-" || format != .desk) {
            throw ValidationError("--html goes with --messages FILE (Desk envelopes)")
        }
    }

    func run() throws {
        var out = Output.stdout()
        defer { out.flush() }
        if format != .desk {
            if !messages {
                out.line(RawArguments.bytes(of: input!).withUnsafeBufferPointer { format.decode($0, strict: false).0 })
                return
            }
            let otherFormat = format
            let failures = try LineBatches.answer(
                input, lineOptions, threadOptions, maxLines: 4096, makeState: {},
                work: { _, line, _, answer in answer.line(otherFormat.decode(line, strict: false).0) },
                overlong: { $1.fail($0) })
            if failures > 0 { throw ExitStatus.someInputsFailed.exitCode }
            return
        }
        if let html, let input {
            try page(of: input).write(to: html)
            if html == "-" { return }
        }
        if !messages {
            // The argument's own bytes: invalid UTF-8 is reported, as it is from a file.
            out.line(DeskPayload.decode(bytes: RawArguments.bytes(of: input!), customType: customType).summaryJSON)
            return
        }
        // One decoder per run of lines: it keeps its working memory from one message to the next.
        let failures = try LineBatches.answer(
            input, lineOptions, threadOptions, maxLines: 8192, makeState: { DeskMessageDecoder() },
            work: { decoder, line, _, answer in answer.line { decoder.decode(line).writeSummary(to: &$0) } },
            overlong: { $1.fail($0) })
        if failures > 0 { throw ExitStatus.someInputsFailed.exitCode }
    }

    /// The conversation in `file`, one envelope a line (blank lines skipped), as a page; each sender is the
    /// envelope's `user.user_id` and `nickname` when it has them.
    private func page(of file: String) throws -> ConversationPage {
        guard let bytes = FileManager.default.contents(atPath: file) else {
            throw Failure(description: "cannot read \(file)", exitStatus: .noInput)
        }
        let lines = bytes.split(separator: UInt8(ascii: "\n")).filter { !$0.allSatisfy { $0 == 0x20 || $0 == 0x0D } }
        let entries = lines.map { ConversationPage.Entry(envelope: String(decoding: $0, as: UTF8.self)) }
        return ConversationPage(title: file, entries: entries, language: interfaceLanguage.language)
    }
}
