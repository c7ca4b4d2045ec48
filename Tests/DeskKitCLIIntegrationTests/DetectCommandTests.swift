import Foundation
import Testing

@Suite("deskkit detect")
struct DetectCommandTests {
    @Test func jsonlAnswersEveryLineAndGoesOnAfterBadOnes() async throws {
        let input = """
            {"text": "see example.com/a and 👋 bob@example.com"}
            not json
            {"nope": 1}
            {"text": "nothing here"}
            """
        let r = try await CLI.run(["detect", "--jsonl"], stdin: input)
        #expect(r.status == 1, "some lines are invalid")
        let lines = try r.lines.map(CLI.json)
        #expect(lines.count == 4)
        let links = try #require(lines[0]["links"] as? [[String: Any]])
        #expect(links.map { $0["text"] as? String } == ["example.com/a", "bob@example.com"])
        #expect(links.map { $0["url"] as? String } == ["https://example.com/a", "mailto:bob@example.com"])
        #expect(links.map { $0["kind"] as? String } == ["url", "email"])
        #expect(links[1]["start"] as? Int == 24)
        #expect(links[1]["utf16_start"] as? Int == 25)
        #expect((lines[1]["error"] as? [String: Any])?["code"] as? String == "not_json")
        #expect((lines[1]["error"] as? [String: Any])?["line"] as? Int == 2)
        #expect((lines[2]["error"] as? [String: Any])?["code"] as? String == "missing_field")
        #expect(((lines[2]["error"] as? [String: Any])?["message"] as? String)?.contains("\"text\"") == true)
        #expect((lines[3]["links"] as? [Any])?.isEmpty == true)
    }

    @Test func flagsChangeWhatIsFound() async throws {
        let text = "example.com 10.0.0.1/x ssh://h.example.com bob@example.com"
        #expect(try await CLI.run(["detect", text]).lines.count == 2)
        let all = try await CLI.run(["detect", "--ip-hosts", "--any-scheme", text]).lines
        #expect(all.count == 4)
        let few = try await CLI.run(["detect", "--no-bare-domains", "--no-emails", text]).lines
        #expect(few.isEmpty)
    }
}
