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
            Starts a web server on 127.0.0.1 (an ephemeral port) serving Corpus/html/demo/, reads the conversation \
            Corpus/conversations/order-late.jsonl (its links point at that server), previews every link with the \
            safe fetcher — which lets only the demo server's own address past its guard — turns the messages \
            into SENDBIRD_DESK_URL_PREVIEW rich messages, and prints what the customer sees and what the agent sees.
            """
    )

    @Option(name: .long, help: "The directory holding html/demo and conversations/.")
    var corpus = "Corpus"

    func run() async throws {
        let pages = URL(fileURLWithPath: corpus).appendingPathComponent("html/demo")
        let conversationFile = URL(fileURLWithPath: corpus).appendingPathComponent("conversations/order-late.jsonl")
        guard FileManager.default.fileExists(atPath: pages.path), let conversation = try? String(contentsOf: conversationFile, encoding: .utf8)
        else {
            throw ValidationError("cannot find \(pages.path) and \(conversationFile.path): run from the repository root or pass --corpus")
        }
        let server = try await PageServer.start { path in Self.serve(path, from: pages) }
        defer { Task { try? await server.stop() } }

        var configuration = FetchConfiguration()
        configuration.allowedAddresses = [.v4(0x7F00_0001)]
        configuration.allowedPorts = [server.port]
        let service = PreviewService(fetcher: PageFetcher(configuration: configuration))

        var messages = conversation.split(separator: "\n").map {
            DeskMessage(json: $0.replacingOccurrences(of: "{{base}}", with: server.baseURL))
        }
        let sources = conversation.split(separator: "\n").map { $0.replacingOccurrences(of: "{{base}}", with: server.baseURL) }
        let err = FileHandle.standardError
        let tty = isatty(2) == 1
        var enriched: [Int: [LinkPreview]] = [:]
        let candidates = messages.indices.filter { messages[$0].messageType == .user && messages[$0].content == .plain }
        for (n, i) in candidates.enumerated() {
            if tty { err.write("\r\u{1B}[Kenriching message \(n + 1)/\(candidates.count) via \(server.baseURL) …") }
            let previews = await service.previews(for: messages[i].text ?? "")
            if !previews.isEmpty { enriched[i] = previews }
            if let first = previews.lazy.compactMap({ try? $0.result.get() }).first,
                var json = try? JSONValue.parse(sources[i])
            {
                // What the enrichment server sends to the Platform API, decoded back as clients will see it.
                let update = DeskPayload.message(.urlPreview(first), text: messages[i].text ?? "")
                json = Self.merge(json, update.json)
                messages[i] = DeskMessage(json: json)
            }
        }
        let stats = await service.statistics
        err.write("\(tty ? "\r\u{1B}[K" : "")enriched \(enriched.count) messages: \(stats.fetches) pages fetched from \(server.baseURL), \(stats.failures.values.reduce(0, +)) failed\n")

        var out = Output.stdout()
        for audience in [Audience.customer, .agent] {
            out.line("")
            out.line("══ What the \(audience == .customer ? "customer" : "agent") sees " + String(repeating: "═", count: 44))
            for (i, message) in messages.enumerated() {
                guard message.isVisible(to: audience) else {
                    // Hidden from the customer, but the client learns that the ticket is closed.
                    if message.closesTicket { out.line("           ✔ ticket closed — the reply bar is hidden") }
                    continue
                }
                let sender = (try? JSONValue.parse(sources[i]))?["user"]?["nickname"]?.stringValue
                for line in Card.render(message, sender: sender, previews: enriched[i] ?? []) { out.line(line) }
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

    static func serve(_ rawPath: String, from root: URL) -> PageServer.Response {
        let path = String(rawPath.split(separator: "?").first ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard !path.contains("..") else { return PageServer.Response(status: 400) }
        let file = path.contains(".") ? root.appendingPathComponent(path) : root.appendingPathComponent(path.replacingOccurrences(of: "/", with: "-") + ".html")
        guard let bytes = try? Data(contentsOf: file) else { return .html("<title>Not found</title>", charset: "utf-8").with(status: 404) }
        let type: String
        switch file.pathExtension {
        case "png": type = "image/png"
        case "jpg", "jpeg": type = "image/jpeg"
        default: type = "text/html"  // the page says its charset itself
        }
        return PageServer.Response(headers: [("Content-Type", type)], body: .bytes([UInt8](bytes)))
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
