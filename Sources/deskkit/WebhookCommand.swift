import ArgumentParser
import AsyncHTTPClient
import DeskKitModel
import DeskKitServer
import Foundation
import NIOCore

/// `deskkit webhook sample|sign|send`: Sendbird webhooks signed as Sendbird signs them, for trying out and
/// testing an enrichment server.
struct WebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook",
        abstract: "Write, sign and send Sendbird webhooks, as Sendbird signs them (for trying out deskkit serve).",
        discussion: """
            The signature is the x-sendbird-signature header: lowercase hex of HMAC-SHA256 of the exact body bytes, \
            keyed with the application's API token (--token, or SENDBIRD_API_TOKEN as for deskkit serve).

            deskkit webhook send --token T                 # a sample message_send with a link, to 127.0.0.1:8080
            deskkit webhook sample | deskkit mutate - --count 200 | deskkit webhook send --mutations --token T
            curl -H "$(deskkit webhook sign --token T body.json)" --data-binary @body.json URL
            """,
        subcommands: [Sample.self, Sign.self, Send.self]
    )

    /// A `group_channel:message_send` of a customer's message with a link: what deskkit serve enriches. Its
    /// message id is `id` (by default the time in milliseconds, so that each one is new to the server).
    static func sample(id: Int64, link: String) -> [UInt8] {
        let body: JSONValue = [
            "category": "group_channel:message_send", "app_id": "00000000-0000-0000-0000-000000000000",
            "sender": ["user_id": "cust-ann", "nickname": "Ann"],
            "channel": [
                "channel_url": "sendbird_desk_agent_chat_4021", "name": "Order #1138 is late",
                "custom_type": "SENDBIRD_DESK_CHANNEL_CUSTOM_TYPE",
            ],
            "type": "MESG",
            "payload": [
                "message_id": .integer(id), "type": "MESG", "custom_type": "", "data": "",
                "message": .string("Hi! My order #1138 has not arrived. Tracking says: \(link)"),
                "created_at": .integer(id),
            ],
        ]
        return Array(body.jsonString.utf8)
    }

    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// The link of the built-in sample.
    static let sampleLink = "https://example.com/tracking/1138"

    struct Token: ParsableArguments {
        @Option(name: .long, help: "The application's API token, the signing key (default: $SENDBIRD_API_TOKEN).")
        var token: String?

        func resolved() throws -> String {
            guard let token = token ?? ProcessInfo.processInfo.environment["SENDBIRD_API_TOKEN"], !token.isEmpty else {
                throw ValidationError("no API token: pass --token or set SENDBIRD_API_TOKEN")
            }
            return token
        }
    }

    struct Sample: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a sample message_send webhook body with a link (one JSON line).")

        @Option(name: .long, help: "The message id (default: the time in milliseconds).")
        var messageID: Int64?

        @Option(name: .long, help: "The link in the message.")
        var link = WebhookCommand.sampleLink

        func run() {
            var out = Output.stdout()
            out.write(WebhookCommand.sample(id: messageID ?? WebhookCommand.now, link: link) + [0x0A])
            out.flush()
        }
    }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the x-sendbird-signature header of a body, as curl -H takes it.",
            discussion: "The body is FILE or standard input (\"-\"), every byte of it, signed as it is.")

        @Argument(help: "The body (default: standard input).")
        var file = "-"

        @OptionGroup var token: Token

        func run() throws {
            var reader = try LineReader(path: file)
            let signature = WebhookSignature.sign(try reader.readAll(), token: try token.resolved())
            var out = Output.stdout()
            out.line("\(WebhookSignature.headerName): \(signature)")
            out.flush()
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a body and POST it; print the answer's status and body.",
            discussion: """
                Sends FILE ("-": standard input) as one body, or a sample message_send with a link when there is no \
                FILE. With --jsonl every line of FILE (default: standard input) is a body of its own; with \
                --mutations every line is a record of deskkit mutate, whose variant (its base64) is the body. \
                Prints one JSON line per request: {"line", "status", "body"} (the body as JSON when it is JSON), \
                or {"line", "error"} when there is no answer. Exit status 1 when an answer is not 2xx or missing.
                """)

        @Argument(help: "The body, or the lines of bodies (default: a sample message_send with a link).")
        var file: String?

        @OptionGroup var token: Token

        @Option(name: .long, help: "Where to POST.")
        var url = "http://127.0.0.1:8080/webhooks/sendbird"

        @Flag(name: .long, help: "Every line of the input is a body.")
        var jsonl = false

        @Flag(name: .long, help: "The input is deskkit mutate's output: every variant is a body.")
        var mutations = false

        @Option(name: .long, help: "Seconds each request may take.")
        var timeout: Int64 = 10

        func validate() throws {
            if jsonl && mutations { throw ValidationError("--jsonl and --mutations exclude each other") }
            if timeout <= 0 { throw ValidationError("--timeout must be positive") }
        }

        func run() async throws {
            let token = try token.resolved()
            // A refused connection is an answer at once, not retried until the timeout.
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool.retryConnectionEstablishment = false
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            var failed = false
            var out = Output.stdout()
            defer { out.flush() }
            var problem: (any CommandFailure)?
            let (bodies, slots) = self.bodies()
            for await item in bodies {
                slots.signal()  // the reader may read one more
                guard case .body(let line, let body) = item else {
                    if case .problem(let failure) = item { problem = failure }
                    break
                }
                var request = HTTPClientRequest(url: url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: WebhookSignature.headerName, value: WebhookSignature.sign(body, token: token))
                request.body = .bytes(ByteBuffer(bytes: body))
                do {
                    let response = try await client.execute(request, timeout: .seconds(timeout))
                    let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
                    failed = failed || !(200..<300).contains(response.status.code)
                    out.line([
                        "line": .integer(Int64(line)), "status": .integer(Int64(response.status.code)),
                        "body": (try? JSONValue.parse(text)) ?? .string(text),
                    ])
                } catch {
                    failed = true
                    out.line(["line": .integer(Int64(line)), "error": .string("\(url): \(error)")])
                }
                out.flush()
            }
            try? await client.shutdown()
            if let problem { throw problem }
            if failed { throw ExitStatus.someInputsFailed.exitCode }
        }

        enum Item: Sendable {
            case body(line: Int, bytes: [UInt8])
            case problem(any CommandFailure)
        }

        /// The bodies to send, read on a thread of their own as they are sent: at most 64 wait (the reader takes
        /// a slot for each, the sender gives it back), so memory stays bounded however long the input
        /// (`deskkit mutate --count 100000000 | …`).
        private func bodies() -> (AsyncStream<Item>, DispatchSemaphore) {
            let (stream, continuation) = AsyncStream.makeStream(of: Item.self)
            let (file, lines, mutations) = (file, jsonl || mutations, mutations)
            let slots = DispatchSemaphore(value: 64)
            let thread = Thread {
                defer { continuation.finish() }
                func send(_ item: Item) {
                    slots.wait()
                    continuation.yield(item)
                }
                do {
                    guard lines else {
                        var reader = try file.map { try LineReader(path: $0) }
                        let body =
                            try reader?.readAll()
                            ?? WebhookCommand.sample(id: WebhookCommand.now, link: WebhookCommand.sampleLink)
                        return send(.body(line: 1, bytes: body))
                    }
                    var reader = try LineReader(path: file ?? "-")
                    var stop: (any CommandFailure)?
                    try reader.forEachNonBlankLine({ line, number in
                        guard stop == nil else { return }
                        guard mutations else { return send(.body(line: number, bytes: Array(line))) }
                        guard let variant = Self.variant(line) else {
                            stop = Failure(
                                description: "line \(number): not a deskkit mutate record (no \"base64\")",
                                exitStatus: .dataError)
                            return
                        }
                        send(.body(line: number, bytes: variant))
                    }) { stop = stop ?? Failure(description: "line \($0.line): \($0.message)", exitStatus: .dataError) }
                    if let stop { send(.problem(stop)) }
                } catch let failure as any CommandFailure {
                    send(.problem(failure))
                } catch {
                    send(.problem(Failure(description: "\(error)", exitStatus: .ioError)))
                }
            }
            thread.start()
            return (stream, slots)
        }

        /// The variant a `deskkit mutate` record carries.
        static func variant(_ line: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
            guard let record = try? JSONValue.parse(String(decoding: line, as: UTF8.self)),
                let encoded = record["base64"]?.stringValue
            else { return nil }
            return try? Array(encoded.utf8).withUnsafeBufferPointer { try Base64.decode($0).bytes }
        }
    }
}
