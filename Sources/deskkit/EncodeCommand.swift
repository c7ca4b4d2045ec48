import ArgumentParser
import DeskKitModel

struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Write a rich message payload (URL preview, closure answer, CSAT answer).",
        discussion: """
            Prints the body of a Platform API message update: {"message_type": "MESG", "message", \
            "custom_type": "SENDBIRD_DESK_RICH_MESSAGE", "data"}. data is raw JSON unless --base64 is given; \
            --data-only prints the data string alone.
            """,
        subcommands: [URLPreviewCommand.self, ClosureCommand.self, CSATCommand.self]
    )

    struct Form: ParsableArguments {
        @Flag(name: .long, help: "Write data as base64 of the JSON (as the iOS docs do) instead of raw JSON.")
        var base64 = false

        @Flag(name: .long, help: "Print only the data string, not the whole message.")
        var dataOnly = false

        @Option(name: .long, help: "The message text (default: the URL for previews, empty otherwise).")
        var text: String?

        func print(_ payload: RichPayload, defaultText: String) {
            var out = Output.stdout()
            let message = DeskPayload.message(payload, text: text ?? defaultText, as: base64 ? .base64 : .json)
            out.line(dataOnly ? message.data : message.json.jsonString)
            out.flush()
        }
    }

    struct URLPreviewCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "url-preview", abstract: "A SENDBIRD_DESK_URL_PREVIEW payload.")

        @Option(name: .long, help: "The page URL (required): http or https, with a host.") var url: String
        @Option(name: .long, help: "The page title.") var title: String?
        @Option(name: .long, help: "The site name.") var siteName: String?
        @Option(name: .long, help: "The description.") var description: String?
        @Option(name: .long, help: "The image URL: http or https, with a host.") var image: String?
        @OptionGroup var form: Form

        func validate() throws {
            if url.isEmpty { throw ValidationError("--url must not be empty") }
            // A client would open these: refuse to write them (unsafe_url).
            if let problem = URLSafety.problem(with: url) { throw ValidationError("--url \(problem) [unsafe_url]") }
            if let image, let problem = URLSafety.problem(with: image) {
                throw ValidationError("--image \(problem) [unsafe_url]")
            }
        }

        func run() {
            let preview = URLPreview(url: url, siteName: siteName, title: title, description: description, image: image)
            form.print(.urlPreview(preview), defaultText: url)
        }
    }

    struct ClosureCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "closure", abstract: "A SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE payload (the customer's answer).")

        @Option(name: .long, help: "WAITING, CONFIRMED or DECLINED.") var state: String
        @Option(name: .long, help: "The ticket id.") var ticketId: Int64?
        @OptionGroup var form: Form

        func validate() throws {
            guard ClosureInquiry.State(rawValue: state).isKnown else {
                throw ValidationError("--state must be WAITING, CONFIRMED or DECLINED, not \(state)")
            }
        }

        func run() {
            form.print(
                .closureInquiry(ClosureInquiry(state: .init(rawValue: state), ticketID: ticketId)), defaultText: "")
        }
    }

    struct CSATCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csat", abstract: "A SENDBIRD_DESK_CUSTOMER_SATISFACTION payload (the customer's answer).")

        @Option(name: .long, help: "WAITING or CONFIRMED (default CONFIRMED).") var state = "CONFIRMED"
        @Option(name: .long, help: "The score, 1 to 5.") var score: Int64?
        @Option(name: .long, help: "The customer's comment.") var comment: String?
        @Option(name: .long, help: "The ticket id.") var ticketId: Int64?
        @OptionGroup var form: Form

        func validate() throws {
            guard CustomerSatisfaction.State(rawValue: state).isKnown else {
                throw ValidationError("--state must be WAITING or CONFIRMED, not \(state)")
            }
            if let score, !CustomerSatisfaction.scoreRange.contains(score) {
                throw ValidationError("--score must be from 1 to 5, not \(score)")
            }
            if state == "CONFIRMED" && score == nil { throw ValidationError("a CONFIRMED answer needs --score") }
        }

        func run() {
            let csat = CustomerSatisfaction(
                state: .init(rawValue: state), score: score, comment: comment, ticketID: ticketId)
            form.print(.customerSatisfaction(csat), defaultText: "")
        }
    }
}
