import Foundation
import Testing

@Suite("deskkit extract")
struct ExtractCommandTests {
    let page = "Tests/DeskKitMetadataTests/Fixtures/charsets/windows-1251-http-only.html"

    @Test func oneFile() throws {
        let r = try CLI.run(["extract", page, "--url", "https://example.ru/a", "--content-type", "text/html; charset=windows-1251"])
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

    @Test func jsonlGoesOnAfterBadLines() throws {
        let input = """
            {"file": "\(page)", "url": "https://example.ru/", "content_type": "text/html; charset=windows-1251"}
            {"file": "/nonexistent.html"}
            nonsense
            """
        let r = try CLI.run(["extract", "--jsonl"], stdin: input)
        #expect(r.status == 0)
        let lines = try r.lines.map(CLI.json)
        #expect(lines.count == 3)
        #expect(lines[0]["title"] as? String == "Привет, мир")
        #expect((lines[1]["error"] as? String)?.contains("cannot read /nonexistent.html") == true)
        #expect((lines[2]["error"] as? String)?.contains("not JSON") == true)
    }

    @Test func missingFileIsAClearError() throws {
        let r = try CLI.run(["extract", "/nonexistent.html"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("cannot read /nonexistent.html"))
    }
}
