import Foundation
import Testing

@Suite("deskkit decode, filter, validate, encode")
struct MessageCommandTests {
    let conversation = """
        {"message_id": 1, "type": "MESG", "message": "Hi, my order is late", "data": ""}
        {"message_id": 2, "type": "ADMM", "custom_type": "SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE", "message": "Assigned to Cindy", "data": "{\\"type\\": \\"SYSTEM_MESSAGE_TICKET_ASSIGNED_BY_SYSTEM\\", \\"ticket\\": {\\"id\\": 7}}"}
        this line is not JSON
        {"message_id": 3, "type": "ADMM", "message": "Welcome", "data": "eyJ0eXBlIjogIk5PVElGSUNBVElPTl9XRUxDT01FIn0="}

        {"message_id": 4, "type": "ADMM", "message": "Closed", "data": "{\\"type\\": \\"TICKET_CLOSE\\"}"}
        """

    @Test func decodeMessagesAnswersEveryLine() async throws {
        let r = try await CLI.run(["decode", "--messages"], stdin: conversation)
        #expect(r.status == 0)
        let lines = try r.lines.map(CLI.json)
        #expect(lines.count == 5)
        #expect(
            lines.map { $0["kind"] as? String } == [
                "plain", "system_message", "malformed", "notification", "system_message",
            ])
        #expect(lines.map { $0["visible_to_customer"] as? Bool } == [true, false, true, true, false])
        #expect(lines.map { $0["ticket_closed"] as? Bool } == [false, false, false, false, true])
        #expect(lines[3]["encoding"] as? String == "base64")
        let error = try #require(lines[2]["error"] as? [String: Any])
        #expect(error["code"] as? String == "invalid_json")
        let value = try #require(lines[1]["value"] as? [String: Any])
        #expect((value["ticket"] as? [String: Any])?["id"] as? Int == 7)
    }

    @Test func decodeReadsAFile() async throws {
        let r = try await CLI.run(["decode", "--messages", "Corpus/messages/admin-system-closed.envelope.json"])
        #expect(r.status == 0)
        let line = try CLI.json(try #require(r.lines.first))
        #expect(line["message_id"] as? Int == 40_620_746)
        #expect(line["ticket_closed"] as? Bool == true)
    }

    @Test func decodeOneDataString() async throws {
        let r = try await CLI.run([
            "decode",
            #"{"type": "SENDBIRD_DESK_CUSTOMER_SATISFACTION", "body": {"status": "CONFIRMED", "customerSatisfactionScore": "5"}}"#,
        ])
        let line = try CLI.json(try #require(r.lines.first))
        #expect(line["kind"] as? String == "customer_satisfaction")
        #expect((line["value"] as? [String: Any])?["score"] as? Int == 5)
    }

    @Test func filterCopiesVisibleLinesByteForByteAndReportsBadOnes() async throws {
        let r = try await CLI.run(["filter", "--audience", "customer"], stdin: conversation)
        #expect(r.status == 1)
        let input = conversation.split(separator: "\n").map(String.init)
        #expect(r.lines == [input[0], input[3]])
        #expect(r.stderr.contains("line 3: skipped: not JSON"))
        let agent = try await CLI.run(["filter", "--audience", "agent"], stdin: conversation)
        #expect(agent.lines == [input[0], input[1], input[3], input[4]])
    }

    @Test func validateReportsEveryProblemWithPath() async throws {
        let input = """
            {"type": "SENDBIRD_DESK_CUSTOMER_SATISFACTION", "body": {"state": "DONE", "customerSatisfactionScore": 8}}
            {"type": "MESG", "message_id": 5, "custom_type": "SENDBIRD_DESK_RICH_MESSAGE", "data": "%%%"}
            {"type": "SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE", "body": {"state": "WAITING"}}
            """
        let r = try await CLI.run(["validate"], stdin: input)
        #expect(r.status == 1)
        #expect(
            r.lines == [
                "line 1: $.body.state: \"DONE\" is not one of WAITING, CONFIRMED [unknown_value]",
                "line 1: $.body.customerSatisfactionScore: score 8 is outside 1–5 [out_of_range]",
                "line 2: $.data: neither JSON nor base64 JSON: character not in the base64 alphabet at byte 0 [invalid_base64]",
                "3 lines checked, 3 problems",
            ])
        let clean = try await CLI.run(["validate", "Corpus/messages/url-preview.data"])
        #expect(clean.status == 0)
    }

    @Test func encodeWritesRichMessagesThatDecodeBack() async throws {
        let r = try await CLI.run(["encode", "url-preview", "--url", "https://a.example/", "--title", "A", "--base64"])
        #expect(r.status == 0)
        let message = try CLI.json(try #require(r.lines.first))
        #expect(message["custom_type"] as? String == "SENDBIRD_DESK_RICH_MESSAGE")
        let data = try #require(message["data"] as? String)
        let back = try await CLI.run(["decode", data])
        let decoded = try CLI.json(try #require(back.lines.first))
        #expect(decoded["kind"] as? String == "url_preview")
        #expect(decoded["encoding"] as? String == "base64")
        #expect((decoded["value"] as? [String: Any])?["title"] as? String == "A")
    }

    @Test func badArgumentsAndFilesGiveClearErrors() async throws {
        let missing = try await CLI.run(["decode", "--messages", "/nonexistent/file.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("cannot read /nonexistent/file.jsonl"))
        #expect(!missing.stderr.contains("Usage"))
        #expect(try await CLI.run(["validate", "/tmp"]).status == 66, "a directory")
        let score = try await CLI.run(["encode", "csat", "--score", "9"])
        #expect(score.status != 0)
        #expect(score.stderr.contains("--score must be from 1 to 5"))
        let audience = try await CLI.run(["filter", "--audience", "robots"])
        #expect(audience.status != 0)
    }
}
