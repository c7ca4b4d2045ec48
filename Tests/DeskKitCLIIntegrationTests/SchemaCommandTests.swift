import Foundation
import Testing

/// `deskkit schema` prints the schemas as kept in the repository, and `deskkit validate --format NAME` is the
/// strict validation each one equals.
@Suite("deskkit schema")
struct SchemaCommandTests {
    static let folder = CLI.repositoryRoot.appendingPathComponent("Sources/DeskKitSchemas/Schemas")

    @Test func listAndPrint() async throws {
        let names = try await CLI.run(["schema", "--list", "--names"])
        #expect(names.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".json")
        }
        #expect(Set(names.lines) == Set(files.map { String($0.dropLast(5)) }))
        let list = try await CLI.run(["schema", "--list"])
        #expect(list.lines.contains { $0.hasPrefix("desk-data") && $0.hasSuffix("Desk data") })
        for name in names.lines {
            let printed = try await CLI.run(["schema", name + ".json"])
            let file = try String(contentsOf: Self.folder.appendingPathComponent(name + ".json"), encoding: .utf8)
            #expect(printed.status == 0)
            #expect(printed.stdout == file, "deskkit schema \(name) is not the file")
        }
        let unknown = try await CLI.run(["schema", "desk"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no schema \"desk\"; there are: common, desk-data"))
        #expect(try await CLI.run(["schema"]).status == 64)
    }

    @Test func validateReadsALineAsTheFormatNamed() async throws {
        let preview =
            #"{"type": "SENDBIRD_DESK_URL_PREVIEW", "body": {"url": "https://example.com/", "image_width": "640"}}"#
        let envelope = #"{"type": "MESG", "custom_type": "SENDBIRD_DESK_RICH_MESSAGE", "data": "   "}"#
        let webhook =
            #"{"category": "group_channel:message_send", "channel": {"channel_url": "c"}, "payload": {"message_id": "7", "type": "X"}}"#
        let input = [preview, envelope, webhook, "[1]"].joined(separator: "\n")
        func answers(_ format: String) async throws -> [String] {
            try await CLI.run(["validate", "--format", format, "--jsonl", "-"], stdin: input).lines
        }
        let data = try await answers("desk-data")
        #expect(data[0].contains(#""valid":true"#))
        #expect(data[3].contains(#""code":"wrong_type","path":"$""#))
        let message = try await answers("desk-message")
        #expect(message[1].contains(#""code":"missing_field","path":"$.data""#))
        let webhooks = try await answers("sendbird-webhook")
        #expect(webhooks[0].contains(#""code":"missing_field","path":"$.category""#))
        #expect(webhooks[2].contains(#""code":"unknown_value","path":"$.type""#), "the message's own problems too")
        // A number with no fraction is an integer however it is written, as JSON Schema reads it.
        let ids = try await CLI.run(
            ["validate", "--format", "desk-message", "--jsonl", "-"],
            stdin: #"{"message_id": 1.0}"# + "\n" + #"{"message_id": 1e3}"# + "\n" + #"{"message_id": 1.5}"#)
        #expect(ids.lines.map { $0.contains(#""valid":true"#) } == [true, true, false])
    }
}
