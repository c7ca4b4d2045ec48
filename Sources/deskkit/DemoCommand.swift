import DeskKitCards
import ArgumentParser
import DeskKitModel
import DeskKitPageServer
import DeskKitPreview
import Foundation

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Enrich a sample support conversation with link previews and show both views. No internet needed.",
        discussion: """
            Starts a web server on 127.0.0.1 (an ephemeral port) serving the demo's pages, reads its conversation \
            (its links point at that server), previews every link with the safe fetcher — which lets only the \
            demo server's own address past its guard — turns the messages into SENDBIRD_DESK_URL_PREVIEW rich \
            messages, and prints what the customer sees and what the agent sees. The pages and the conversation \
            are compiled into deskkit, so it runs from any directory. With --lang, the interface speaks that \
            language and the pages are asked for it (the conversation keeps its words).
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write the conversation as a self-contained HTML page to FILE (\"-\": standard output) instead of text.",
            valueName: "FILE"))
    var html: String?

    @OptionGroup var interface: InterfaceLanguageOption

    func run() async throws {
        let language = interface.language
        let server = try await PageServer.start { path in Self.serve(path) }
        do {
            try await show(with: server, in: language)
        } catch {
            try? await server.stop()
            throw error
        }
        try? await server.stop()
    }

    /// The conversation, its previews fetched from `server`.
    private func show(with server: PageServer, in language: InterfaceLanguage) async throws {

        var configuration = FetchConfiguration()
        configuration.allowedAddresses = [.v4(0x7F00_0001)]
        configuration.allowedPorts = [server.port]
        // The pages are asked for the interface's language, as a customer's would be.
        configuration.acceptLanguage = (try? AcceptLanguage(language.tag)) ?? .default
        let service = PreviewService(fetcher: PageFetcher(configuration: configuration))

        let sources = DemoFiles.conversation.map { $0.replacingOccurrences(of: "{{base}}", with: server.baseURL) }
        var entries = sources.map(ConversationPage.Entry.init(envelope:))
        let err = FileHandle.standardError
        let tty = isatty(2) == 1
        let candidates = entries.indices.filter {
            entries[$0].message.messageType == .user && entries[$0].message.content == .plain
        }
        // The pages asked for, and those that gave no preview (each once: the service caches its answers).
        var fetched = Set<String>()
        var failed = Set<String>()
        for (n, i) in candidates.enumerated() {
            if tty {
                let progress = language.text(
                    .demoEnriching, ["index": "\(n + 1)", "total": "\(candidates.count)", "server": server.baseURL])
                err.write("\r\u{1B}[K" + progress)
            }
            let text = entries[i].message.text ?? ""
            let found = await service.previews(for: text)
            entries[i].previews = found.map(ConversationPage.LinkPreview.init)
            for preview in found {
                fetched.insert(preview.link.href)
                if (try? preview.result.get()) == nil { failed.insert(preview.link.href) }
            }
            if let first = found.lazy.compactMap({ try? $0.result.get() }).first,
                let json = try? JSONValue.parse(sources[i])
            {
                // What the enrichment server sends to the Platform API, decoded back as clients will see it.
                let update = DeskPayload.message(.urlPreview(first), text: text)
                entries[i].message = DeskMessage(json: Self.merge(json, update.json))
            }
        }
        let enriched = entries.filter { !$0.previews.isEmpty }.count
        let summary = [
            language.text(.demoEnriched, count: enriched),
            language.text(.demoFetched, count: fetched.count, ["server": server.baseURL]),
            language.text(.demoFailed, count: failed.count),
        ]
        err.write((tty ? "\r\u{1B}[K" : "") + summary.joined(separator: ", ") + "\n")

        if let html {
            // The server is gone when the page is read: its pictures travel inside the page.
            var page = ConversationPage(
                title: "Acme support: order #1138 is late", entries: entries, language: language)
            let base = server.baseURL
            page.imageURL = { url in
                guard url.hasPrefix(base), let file = DemoFiles.file(at: String(url.dropFirst(base.count))),
                    file.contentType.hasPrefix("image/")
                else { return url }
                return "data:\(file.contentType);base64," + Base64.encode(file.bytes)
            }
            try page.write(to: html)
            return
        }
        var out = Output.stdout()
        let card = Card(language: language)
        for audience in [Audience.customer, .agent] {
            out.line("")
            let heading = language.text(audience == .customer ? .customerView : .agentView)
            out.line("══ \(heading) " + String(repeating: "═", count: max(4, 60 - heading.count)))
            for entry in entries {
                guard entry.message.isVisible(to: audience) else {
                    // Hidden from the customer, but the client learns that the ticket is closed.
                    if entry.message.closesTicket { out.line("           ✔ " + language.text(.ticketClosed)) }
                    continue
                }
                for line in card.render(entry.message, sender: entry.senderName, previews: entry.previews) {
                    out.line(line)
                }
            }
        }
        out.flush()
    }

    static func merge(_ envelope: JSONValue, _ update: JSONValue) -> JSONValue {
        guard var o = envelope.objectValue else { return envelope }
        o["custom_type"] = update["custom_type"]
        o["data"] = update["data"]
        return .object(o)
    }

    static func serve(_ path: String) -> PageServer.Response {
        guard let file = DemoFiles.file(at: path) else {
            return .html("<title>Not found</title>", charset: "utf-8").with(status: 404)
        }
        return PageServer.Response(headers: [("Content-Type", file.contentType)], body: .bytes(file.bytes))
    }
}

extension PageServer.Response {
    func with(status: Int) -> PageServer.Response {
        var r = self
        r.status = status
        return r
    }
}

extension FileHandle: @retroactive TextOutputStream {
    public func write(_ string: String) { write(Data(string.utf8)) }
}
