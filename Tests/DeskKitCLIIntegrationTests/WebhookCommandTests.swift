import Crypto
import Foundation
import Testing

/// `deskkit webhook sample|sign|send` against a real `deskkit serve`: the server's own signature check is the
/// judge of the signing.
@Suite("deskkit webhook")
struct WebhookCommandTests {
    @Test func signedBodiesAreAcceptedAndWrongTokensRefused() async throws {
        let directory = FileManager.default.temporaryDirectory
        let (server, port) = try await CrashRecoveryTests.serve(
            ["--store", "memory", "--api-base", "http://127.0.0.1:9"], in: directory)
        defer { server.terminate() }
        let url = "http://127.0.0.1:\(port)/webhooks/sendbird"
        let token = CrashRecoveryTests.token

        let sample = try await CLI.run(["webhook", "sample", "--message-id", "4242"])
        #expect(sample.status == 0)
        let body = try CLI.json(sample.lines[0])
        #expect(body["category"] as? String == "group_channel:message_send")
        #expect(((body["payload"] as? [String: Any])?["message"] as? String)?.contains("https://") == true)

        let first = try await CLI.run(["webhook", "send", "-", "--token", token, "--url", url], stdin: sample.stdout)
        #expect(first.status == 0)
        #expect(first.lines == [#"{"line":1,"status":200,"body":{"status":"queued"}}"#])
        let again = try await CLI.run(["webhook", "send", "-", "--token", token, "--url", url], stdin: sample.stdout)
        #expect(again.lines == [#"{"line":1,"status":200,"body":{"status":"duplicate"}}"#])
        let fresh = try await CLI.run(["webhook", "send", "--url", url], environment: ["SENDBIRD_API_TOKEN": token])
        #expect(
            fresh.lines == [#"{"line":1,"status":200,"body":{"status":"queued"}}"#], "the built-in sample, a new id")

        let wrong = try await CLI.run(["webhook", "send", "--token", "not-the-token", "--url", url])
        #expect(wrong.status == 1)
        #expect(try CLI.json(wrong.lines[0])["status"] as? Int == 401)

        let sign = try await CLI.run(["webhook", "sign", "--token", token], stdin: sample.stdout)
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data(sample.stdout.utf8), using: SymmetricKey(data: Data(token.utf8)))
        #expect(sign.lines == ["x-sendbird-signature: " + mac.map { String(format: "%02x", $0) }.joined()])

        // QA's pipeline: mutated webhooks are answered 200 or 400, never a server error, and never unanswered.
        let variants = try await CLI.run(["mutate", "-", "--count", "60", "--seed", "5"], stdin: sample.stdout)
        let sent = try await CLI.run(
            ["webhook", "send", "--mutations", "--token", token, "--url", url], stdin: variants.stdout)
        #expect(sent.lines.count == 60)
        let statuses = try sent.lines.map { try CLI.json($0)["status"] as? Int }
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 400 || $0 == 413 }, "\(statuses)")
        #expect(statuses.contains(400))
    }

    /// Bodies are sent as they are read, so an endless `deskkit mutate | deskkit webhook send` runs in bounded
    /// memory: the first answer is out while the input is still open.
    @Test func bodiesAreSentWhileTheInputIsRead() async throws {
        let (server, port) = try await CrashRecoveryTests.serve(
            ["--store", "memory", "--api-base", "http://127.0.0.1:9"], in: FileManager.default.temporaryDirectory)
        defer { server.terminate() }
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = [
            "webhook", "send", "--jsonl", "--token", "t", "--url", "http://127.0.0.1:\(port)/webhooks/sendbird",
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("{}\n".utf8))
        let firstAnswer = await CLI.readAvailable(output)  // waits until the first line is written
        #expect(String(decoding: firstAnswer, as: UTF8.self).hasPrefix(#"{"line":1,"status":401"#))
        input.fileHandleForWriting.write(Data("{}\n".utf8))
        try input.fileHandleForWriting.close()
        let rest = await CLI.readToEnd(output)
        await CLI.exit(of: process)
        #expect(String(decoding: rest, as: UTF8.self).hasPrefix(#"{"line":2,"status":401"#))
        #expect(process.terminationStatus == 1)
    }

    @Test func usageErrors() async throws {
        let noToken = try await CLI.run(["webhook", "sign"], stdin: "{}", environment: [:])
        #expect(noToken.status == 64)
        #expect(noToken.stderr.contains("no API token: pass --token or set SENDBIRD_API_TOKEN"))
        let notMutate = try await CLI.run(
            ["webhook", "send", "--mutations", "--token", "t", "--url", "http://127.0.0.1:9/"], stdin: "{}\n")
        #expect(notMutate.status == 65)
        #expect(notMutate.stderr.contains("line 1: not a deskkit mutate record"))
        let unreachable = try await CLI.run(["webhook", "send", "--token", "t", "--url", "http://127.0.0.1:9/x"])
        #expect(unreachable.status == 1)
        #expect(try CLI.json(unreachable.lines[0])["error"] != nil)
    }
}
