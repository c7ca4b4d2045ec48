import ArgumentParser
import DeskKitCards
import DeskKitJSON
import DeskKitModel

struct CardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Print the card a client shows for each URL preview: the decisions, and its HTML.",
        discussion: """
            Reads JSON lines (standard input when FILE is absent or "-"): message envelopes in any shape \
            `decode` reads, `SENDBIRD_DESK_URL_PREVIEW` payloads (`{"type", "body"}`) or `data` strings. Writes \
            for each `{"card", "html"}`: the card's decisions as the web module's `linkCard` answers them — \
            `{"link", "host", "image": {"url", "width", "height", "alt"}, "site", "title", "description"}`, each \
            text `{"text", "dir", "clipped"}` — and the card as `CardHTML` writes it; `{"card": null, "html": ""}` \
            when there is no card. With --urls, each line is instead a URL (a JSON string, or the line as it \
            is) and the answer `{"url", "safe", "problem"}`: whether a client may open or load it, by the one \
            rule renderers use, and why not.
            """
    )

    @Flag(name: .long, help: "Check URLs instead of drawing cards.")
    var urls = false

    @Option(name: .long, help: "The longest title and site label, in graphemes (150).")
    var maxTitle = 150

    @Option(name: .long, help: "The longest description, in graphemes (300).")
    var maxDescription = 300

    @OptionGroup var lineOptions: LineOptions
    @OptionGroup var threadOptions: ThreadOptions

    @Argument(help: "The file to read (default: standard input).")
    var file: String?

    func validate() throws {
        guard maxTitle > 0, maxDescription > 0 else {
            throw ValidationError("--max-title and --max-description must be positive")
        }
    }

    func run() throws {
        let limits = LinkCard.Limits(title: maxTitle, description: maxDescription)
        let urls = urls
        _ = try LineBatches.answer(
            file, lineOptions, threadOptions, maxLines: 8192, makeState: { DeskMessageDecoder() },
            work: { decoder, line, _, answer in
                if urls {
                    let url =
                        (try? JSONValue.parse(line))?.stringValue ?? String(decoding: line, as: UTF8.self)
                    let problem = URLSafety.problem(with: url)
                    answer.line { w in
                        w.member("url", url, first: true)
                        w.member("safe")
                        w.raw(problem == nil ? "true" : "false")
                        w.member("problem", problem)
                        w.raw("}")
                    }
                    return
                }
                let card = Self.card(of: line, limits: limits, decoder: &decoder)
                answer.line { w in
                    w.member("card", first: true)
                    if let card { card.write(to: &w) } else { w.raw("null") }
                    w.member("html", card.map { CardHTML.render($0) } ?? "")
                    w.raw("}")
                }
            },
            overlong: { error, answer in answer.fail(error) })
    }

    /// The card of a line as the web module reads one: a payload object or a JSON string (`data`) by its
    /// payload, anything else as a message envelope.
    static func card(
        of line: UnsafeBufferPointer<UInt8>, limits: LinkCard.Limits, decoder: inout DeskMessageDecoder
    ) -> LinkCard? {
        let value = try? JSONValue.parse(line)
        let data: String? =
            if let text = value?.stringValue {
                text
            } else if let type = value?["type"]?.stringValue, type.hasPrefix("SENDBIRD_DESK_"), value?["body"] != nil {
                String(decoding: line, as: UTF8.self)
            } else {
                nil
            }
        if let data {
            guard case .urlPreview(let preview) = DeskPayload.decode(data).content else { return nil }
            return LinkCard(preview, limits: limits)
        }
        return LinkCard(decoder.decode(line), limits: limits)
    }
}
