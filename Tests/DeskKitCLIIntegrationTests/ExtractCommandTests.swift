import Foundation
import Testing

@Suite("deskkit extract")
struct ExtractCommandTests {
    let page = "Tests/DeskKitMetadataTests/Fixtures/charsets/windows-1251-http-only.html"

    @Test func oneFile() async throws {
        let r = try await CLI.run([
            "extract", page, "--url", "https://example.ru/a", "--content-type", "text/html; charset=windows-1251",
        ])
        #expect(r.status == 0)
        let m = try CLI.json(try #require(r.lines.first))
        #expect(m["title"] as? String == "Привет, мир")
        #expect(m["url"] as? String == "https://example.ru/a")
        #expect(m["site_name"] as? String == "example.ru")
        #expect(m["description"] as? String == "body", "the first paragraph, for want of a description")
        #expect(m["image"] is NSNull)
        #expect(m["charset"] as? String == "WINDOWS-1251")
        // The page is read as it is: not a byte added or lost.
        let size = try #require(FileManager.default.attributesOfItem(atPath: page)[.size] as? Int)
        #expect(m["bytes_parsed"] as? Int == size)
    }

    @Test func jsonlGoesOnAfterBadLines() async throws {
        let input = """
            {"file": "\(page)", "url": "https://example.ru/", "content_type": "text/html; charset=windows-1251"}
            {"file": "/nonexistent.html"}
            nonsense
            """
        let r = try await CLI.run(["extract", "--jsonl"], stdin: input + "\n\n")
        #expect(r.status == 1)
        let lines = try r.lines.map(CLI.json)
        #expect(lines.count == 3, "blank lines are skipped")
        #expect(lines[0]["title"] as? String == "Привет, мир")
        let cannotRead = try #require(lines[1]["error"] as? [String: Any])
        #expect(cannotRead["code"] as? String == "cannot_read")
        #expect((cannotRead["message"] as? String)?.contains("cannot read /nonexistent.html") == true)
        #expect(cannotRead["line"] as? Int == 2)
        let notJSON = try #require(lines[2]["error"] as? [String: Any])
        #expect(notJSON["code"] as? String == "not_json")
        #expect(notJSON["line"] as? Int == 3)
    }

    @Test func missingFileIsAClearError() async throws {
        let r = try await CLI.run(["extract", "/nonexistent.html"])
        #expect(r.status == 66)
        #expect(r.stderr.contains("cannot read /nonexistent.html"))
        #expect(!r.stderr.contains("Usage"), "a run-time error prints no usage")
    }
}

/// The line commands are parsed on their own (start-up time); what the root answers must not change.
@Suite("deskkit line commands, parsed on their own")
struct LineCommandParsingTests {
    @Test(arguments: ["decode", "filter", "validate", "detect", "extract"])
    func errorsAndHelpAreTheRootsAnswers(command: String) async throws {
        let bogus = try await CLI.run([command, "--no-such-flag"], stdin: "")
        #expect(bogus.status == 64)
        #expect(bogus.stderr.hasPrefix("Error: "))
        #expect(bogus.stderr.contains("Usage: deskkit \(command)"), "usage names the command under deskkit")
        let help = try await CLI.run([command, "--help"], stdin: "")
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: deskkit \(command)"))
        let threads = try await CLI.run([command, "--threads", "0"], stdin: "")
        #expect(threads.status == 64, "validation still stops the run")
        #expect(threads.stderr.contains("Usage: deskkit \(command)"))
    }
}
