import DeskKitCards
import Foundation
import ArgumentParser
import DeskKitLinks
import DeskKitModel
import DeskKitPreview
import DeskKitServer

struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Fetch a page safely and print its SENDBIRD_DESK_URL_PREVIEW message.",
        discussion: """
            Given a URL (or text: its first link is used), fetches the page with DeskKit's safe fetcher \
            (http/https on ports 80 and 443, public addresses only, redirects checked, time and bytes bounded) \
            and prints the Platform API message body {"message_type", "message", "custom_type", "data"}. \
            On failure prints {"error": {"kind", "provider", "detail"}} and exits 1: a page that stands in \
            for the one linked (a bot check, a consent or login wall, an error page served as a success, a \
            parked domain, an empty app shell, a notice every address of the site gets) gets no card but its kind \
            (challenge, consent_wall, login_wall, error_page, parked_domain, empty_shell, notice), and provider names who ran it when that is known; a host \
            the site policy refuses (--preview-hosts-deny, --preview-hosts-allow) gets kind policy, and no fetch.
            """
    )

    @Argument(help: "A URL, or text containing one.")
    var urlOrText: String

    @Flag(name: .long, help: "Write data as base64 instead of raw JSON.")
    var base64 = false

    @Option(
        name: [.customLong("fetch-timeout"), .customLong("timeout")],
        help: ArgumentHelp(
            "How long the whole fetch may take, as deskkit serve's --fetch-timeout: 500ms, 10s, 1m (a bare number is seconds; --timeout is the same).",
            valueName: "duration"),
        transform: Duration.argument)
    var fetchTimeout: Duration = .seconds(10)

    @Option(name: .long, help: "Body bytes read at most.")
    var maxBytes: Int = 2_000_000

    @Flag(
        name: .long,
        help: "Allow private, loopback and other non-public addresses and any port (trusted networks only).")
    var allowPrivate = false

    @Option(help: .setting("preview_hosts_deny")) var previewHostsDeny: String?
    @Option(help: .setting("preview_hosts_allow")) var previewHostsAllow: String?

    @Option(
        name: .long,
        help: "The User-Agent sent (default: deskkit serve's variable for it, else DeskKit and its version with a URL)."
    )
    var userAgent: String?

    @Flag(
        name: .long,
        help: """
            Print {"message": …, "details": {"image_width", "image_height", "image_type", "oembed_type", \
            "provider_name", "author_name", "media_type", "content_length", "file_name", "charset", \
            "charset_source", "oembed_error", "image_dropped", "image_probe_error", "sources"}}.
            """)
    var details = false

    @Flag(
        name: .long,
        help: """
            Explain the card instead: each request (status, content type, charset, bytes, time, the site policy's \
            and the address guard's verdicts), the page's tags by source and which one each field came from, the \
            image probe, and the card or the refusal with the signals read — as the server's GET /v1/inspect.
            """)
    var explain = false

    @Flag(name: .long, help: "With --explain: print GET /v1/inspect's JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Do not fetch the card's image for its size and type (nor drop it when it is none).")
    var noImageProbe = false

    @Flag(
        name: .long,
        help: """
            Do not ask the link's site for a made-up address of its own beside the page (a page with nothing of its \
            own that the made-up address gets too is a notice, not the page).
            """)
    var noSiteProbe = false

    @Flag(
        name: .customLong("no-oembed"),
        help: "Do not ask oEmbed providers (the built-in table's, or a page's discovery link).")
    var noOEmbed = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also write the message as a chat client shows it, a self-contained HTML page, to FILE (\"-\": standard output instead of the JSON).",
            valueName: "FILE"))
    var html: String?

    @OptionGroup var interface: InterfaceLanguageOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The languages asked of the page: a tag (ru: Russian, then any) or an Accept-Language list (default: deskkit serve's variable for it, else en, *;q=0.5).",
            valueName: "languages"),
        transform: AcceptLanguage.argument)
    var acceptLanguage: AcceptLanguage?

    func validate() throws {
        if fetchTimeout <= .zero { throw ValidationError("--fetch-timeout must be positive") }
        if maxBytes <= 0 { throw ValidationError("--max-bytes must be positive") }
        if json && !explain { throw ValidationError("--json goes with --explain") }
        if explain && html != nil { throw ValidationError("--explain prints text or JSON: leave out --html") }
        if let userAgent, !FetchConfiguration.isValidUserAgent(userAgent) {
            throw ValidationError("--user-agent must be 1 to 512 printable ASCII characters")
        }
    }

    func run() async throws {
        var configuration = FetchConfiguration()
        configuration.totalTimeout = fetchTimeout
        configuration.connectTimeout = min(configuration.connectTimeout, configuration.totalTimeout)
        configuration.maxBodyBytes = maxBytes
        configuration.allowPrivateAddresses = allowPrivate
        // An empty variable is none (`environmentValue`), and --user-agent is checked in `validate()`.
        if let agent = userAgent
            ?? ServerConfiguration.environmentValue(of: "user_agent", in: ProcessInfo.processInfo.environment)
        {
            configuration.userAgent = agent
        }
        if let languages = acceptLanguage {
            configuration.acceptLanguage = languages
        } else if let setting = ServerConfiguration.setting(key: "accept_language"),
            let text = ServerConfiguration.environmentValue(of: setting.key, in: ProcessInfo.processInfo.environment)
        {
            do throws(AcceptLanguage.Problem) { configuration.acceptLanguage = try AcceptLanguage(text) } catch {
                throw ValidationError("\(setting.variable): \(error)")
            }
        }
        // The site policy of deskkit serve: its flags, else its variables.
        let environment = ProcessInfo.processInfo.environment
        do throws(SitePolicy.Problem) {
            configuration.sitePolicy = try SitePolicy(
                deny: previewHostsDeny
                    ?? ServerConfiguration.environmentValue(of: "preview_hosts_deny", in: environment),
                allow: previewHostsAllow
                    ?? ServerConfiguration.environmentValue(of: "preview_hosts_allow", in: environment))
        } catch {
            throw ValidationError("site policy: \(error)")
        }
        var service = PreviewService.Configuration()
        service.probeImages = !noImageProbe
        service.oEmbed = !noOEmbed
        service.siteProbe = !noSiteProbe
        let previews = PreviewService(fetcher: PageFetcher(configuration: configuration), configuration: service)
        let link = LinkDetector().links(in: urlOrText).first { $0.kind == .url }
        let url = link?.href ?? urlOrText
        var out = Output.stdout()
        defer { out.flush() }
        if explain {
            let explanation = await previews.explain(url)
            let answer = explanation.json()
            if json {
                out.line(answer)
            } else {
                out.write(ExplanationText(answer).text.utf8)
            }
            if case .failure = explanation.result { throw ExitStatus.someInputsFailed.exitCode }
            return
        }
        let card = await previews.card(for: url)
        let result = card.map(\.preview)
        let found = (try? card.get().details) ?? PreviewDetails()
        if let html {
            try writePage(result, link: link, to: html)
            if html == "-" {
                if case .failure = result { throw ExitStatus.someInputsFailed.exitCode }
                return
            }
        }
        switch result {
        case .success(let preview):
            let message = DeskPayload.message(.urlPreview(preview), text: urlOrText, as: base64 ? .base64 : .json).json
            out.line(details ? ["message": message, "details": found.json] : message)
        case .failure(let error):
            // What the user can do about a refusal: the flag that lifts the guard, for a trusted network.
            var error = error
            if error.kind == .blockedAddress && !allowPrivate {
                error.detail += " (--allow-private fetches from private addresses and any port, for trusted networks)"
            }
            out.line(["error": error.json])
            out.flush()
            throw ExitStatus.someInputsFailed.exitCode
        }
    }

    /// The message as the enrichment server would leave it: with its preview card, or plain with the failure
    /// noted in the agent's view.
    private func writePage(_ result: Result<URLPreview, FetchError>, link: Link?, to path: String) throws {
        // As clients receive it (the Platform API body names the type `message_type`, a message `type`).
        var envelope: JSONValue = ["type": "MESG", "message": .string(urlOrText)]
        if case .success(let preview) = result {
            envelope = [
                "type": "MESG", "message": .string(urlOrText),
                "custom_type": .string(DeskPayload.richMessageCustomType),
                "data": .string(DeskPayload.encode(.urlPreview(preview))),
            ]
        }
        let language = interface.language
        var entry = ConversationPage.Entry(
            message: DeskMessage(json: envelope), senderID: "you", senderName: language.text(.you))
        if let link { entry.previews = [ConversationPage.LinkPreview(LinkPreview(link: link, result: result))] }
        let title = language.text(.previewTitle, ["link": urlOrText])
        try ConversationPage(title: title, entries: [entry], language: language).write(to: path)
    }
}
