import Foundation
import Testing

/// What users feed the command: long lines, closed pipes, unsafe URLs, bytes that are not UTF-8.
@Suite("deskkit on bad and big input")
struct HardeningTests {
    @Test func aLineOverTheLimitIsAnErrorOfItsOwnAndTheRunGoesOn() async throws {
        let long = #"{"message_id": 1, "data": ""# + String(repeating: "x", count: 300) + #""}"#
        let input = "{\"message_id\": 7}\n\(long)\n{\"message_id\": 8}\n"
        let decode = try await CLI.run(["decode", "--messages", "--max-line-bytes", "100"], stdin: input)
        #expect(decode.status == 1)
        let lines = try decode.lines.map(CLI.json)
        #expect(lines.count == 3)
        #expect(lines[0]["message_id"] as? Int == 7)
        let error = try #require(lines[1]["error"] as? [String: Any])
        #expect(error["code"] as? String == "line_too_long")
        #expect(error["line"] as? Int == 2)
        #expect((error["message"] as? String)?.contains("--max-line-bytes") == true)
        #expect(lines[2]["message_id"] as? Int == 8)

        let validate = try await CLI.run(["validate", "--max-line-bytes", "100"], stdin: input)
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("line 2: longer than 100 bytes"))
        let filter = try await CLI.run(["filter", "--audience", "customer", "--max-line-bytes", "100"], stdin: input)
        #expect(filter.status == 1)
        #expect(filter.lines.count == 2)
        #expect(filter.stderr.contains("line 2: longer than 100 bytes"))
        let detect = try await CLI.run(
            ["detect", "--jsonl", "--max-line-bytes", "20"],
            stdin: "{\"text\": \"a.com\"}\n{\"text\": \"\(String(repeating: "b", count: 30))\"}\n")
        #expect(detect.status == 1)
        #expect(try detect.lines.map(CLI.json)[1]["error"] as? [String: Any] != nil)
        #expect(try await CLI.run(["decode", "--messages", "--max-line-bytes", "0"], stdin: "").status == 64)
    }

    @Test func detectReadsAFileToo() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("deskkit-detect-\(UUID()).jsonl")
        try Data("{\"text\": \"see example.com\"}\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try await CLI.run(["detect", "--jsonl", file.path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("https://example.com"))
    }

    /// `deskkit mutate --count 100000000 | head -1`: the first line comes out at once and the command
    /// stops quietly when the reader goes away (it used to build every variant first, which takes hours: the
    /// time limit tells the two apart, with no margin to tune).
    @Test(.timeLimit(.minutes(1))) func mutateStreamsAndStopsOnAClosedPipe() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "'\(CLI.executable.path)' mutate --count 100000000 | head -1"]
        process.currentDirectoryURL = CLI.repositoryRoot
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let first = await CLI.readToEnd(out)
        await CLI.exit(of: process)
        let line = try CLI.json(String(decoding: first, as: UTF8.self).trimmingCharacters(in: .newlines))
        #expect(line["mutation"] is String)
        #expect(await CLI.readToEnd(err).isEmpty)
    }

    @Test func unsafeURLsAreRefusedByEncodeAndReportedByValidate() async throws {
        for url in ["javascript:alert(1)", "data:text/html,x", "file:///etc/passwd", "https://u:p@example.com/"] {
            let r = try await CLI.run(["encode", "url-preview", "--url", url, "--data-only"])
            #expect(r.status == 64, "\(url)")
            #expect(r.stderr.contains("unsafe_url"), "\(url)")
        }
        let image = try await CLI.run([
            "encode", "url-preview", "--url", "https://example.com", "--image", "vbscript:x",
        ])
        #expect(image.status == 64)
        let data = #"{"type":"SENDBIRD_DESK_URL_PREVIEW","body":{"url":"javascript:alert(1)","title":"T"}}"#
        let validate = try await CLI.run(["validate"], stdin: data + "\n")
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("$.body.url: has the scheme \"javascript:\", not http or https [unsafe_url]"))
    }

    /// Invalid UTF-8 in an argument is reported as it is from a file, not replaced silently.
    @Test func argumentsAreReadAsTheirBytes() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // printf writes \377 as the byte 0xFF.
        let data = #"{"type":"SENDBIRD_DESK_URL_PREVIEW","body":{"url":"https://example.com/\377"}}"#
        process.arguments = ["-c", "'\(CLI.executable.path)' decode \"$(printf '\(data)')\""]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let answer = await CLI.readToEnd(out)
        await CLI.exit(of: process)
        let json = try CLI.json(String(decoding: answer, as: UTF8.self))
        #expect(json["kind"] as? String == "malformed")
        let problems = try #require(json["problems"] as? [[String: Any]])
        #expect(problems.first?["code"] as? String == "invalid_json")
        #expect((problems.first?["message"] as? String)?.contains("invalid UTF-8") == true)
    }

    /// Errors say what to do: the flag that lifts the guard, a refusal at once, a bad IPv4 host as a URL error.
    @Test func fetchErrorsTellTheUserWhatToDo() async throws {
        let port = try await CLI.run(["preview", "http://example.com:8080/"])
        #expect(port.status == 1)
        #expect(port.stdout.contains("port 8080 is not allowed") && port.stdout.contains("--allow-private"))
        // A refused connection fails at once, as refused — not, after the connect timeout's retries, as a time-out
        // ("connecting took too long"). Said by the error, not by a stopwatch a loaded machine could stop late.
        let refused = try await CLI.run(["preview", "--allow-private", "http://127.0.0.1:9/"])
        #expect(refused.stdout.contains(#""detail":"connection refused""#), "\(refused.stdout)")
        #expect(!refused.stdout.contains("timeout"))
        let badHost = try await CLI.run(["preview", "http://256.1.1.1/"])
        #expect(badHost.stdout.contains(#""kind":"invalid_url""#))
        #expect(badHost.stdout.contains("256.1.1.1 is not a valid IPv4 address"))
    }

    /// Arrays, null and scalars are judged alike by validate, decode and filter; validate --jsonl answers
    /// each line.
    @Test func nonObjectsAreJudgedAlike() async throws {
        for line in ["[1, 2]", "null", "3", "true"] {
            let validate = try await CLI.run(["validate", "--jsonl"], stdin: line + "\n")
            #expect(validate.status == 1, "\(line)")
            let answer = try CLI.json(try #require(validate.lines.first))
            #expect(answer["valid"] as? Bool == false)
            let problem = try #require((answer["problems"] as? [[String: Any]])?.first)
            #expect(problem["code"] as? String == "wrong_type", "\(line)")
            let decode = try CLI.json(
                try #require(try await CLI.run(["decode", "--messages"], stdin: line + "\n").lines.first))
            #expect((decode["error"] as? [String: Any])?["code"] as? String == "wrong_type", "\(line)")
            #expect(try await CLI.run(["filter", "--audience", "agent"], stdin: line + "\n").status == 1, "\(line)")
        }
        let good = try await CLI.run(["validate", "--jsonl"], stdin: "{\"message_id\": 1}\n\n{\"message_id\": 2}\n")
        #expect(good.status == 0)
        #expect(try good.lines.map(CLI.json).map { $0["line"] as? Int } == [1, 3])
    }

    /// A terminal on standard input gets a hint instead of a silent wait (`script` gives the command a
    /// pseudo-terminal; its end of input closes it). A pipe gets none.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func aTerminalOnStandardInputGetsAHint() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "'\(CLI.executable.path)' validate", "/dev/null"]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = Pipe()
        try process.run()
        try (process.standardInput as? Pipe)?.fileHandleForWriting.close()
        let text = String(decoding: await CLI.readToEnd(out), as: UTF8.self)
        await CLI.exit(of: process)
        #expect(text.contains("reading standard input from the terminal"))
        #expect(!(try await CLI.run(["validate"], stdin: "").stderr.contains("terminal")))
    }

    @Test func versionFromOneConstant() async throws {
        let r = try await CLI.run(["--version"])
        #expect(r.status == 0)
        let changelog = try String(
            contentsOf: CLI.repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let version = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(changelog.contains("## \(version) "), "CHANGELOG.md has an entry for \(version)")
    }
}
