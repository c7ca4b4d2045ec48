import Foundation
import Testing

/// The commands that answer each line on its own work on every core (`--threads`): the output, standard
/// error and exit status are the same for any number of threads, lines are answered in input order, and
/// errors (not JSON, too long, missing files) stay at their lines.
@Suite("deskkit --threads", .serialized)  // one process at a time: each waits on a thread of the test process
struct ThreadsTests {
    /// 6,000 envelopes with ids 1…6,000 (two batches of 1 MiB and a part), the corpus's kinds in turn, with
    /// blank lines, lines that are not JSON and lines over the limit among them.
    static let envelopes: String = {
        let corpus = CLI.repositoryRoot.appendingPathComponent("Corpus/messages")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).filter {
            $0.hasSuffix(".envelope.json")
        }.sorted()
        let bodies = files.compactMap {
            try? JSONSerialization.jsonObject(with: Data(contentsOf: corpus.appendingPathComponent($0)))
                as? [String: Any]
        }
        var lines: [String] = []
        for id in 1...6_000 {
            var body = bodies[id % bodies.count]
            body["message_id"] = id
            let data = try! JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
            lines.append(String(decoding: data, as: UTF8.self))
            if id % 397 == 0 { lines.append("not json \(id)") }
            if id % 1999 == 0 { lines.append("") }
            if id % 1201 == 0 {
                lines.append(#"{"message_id": 0, "message": ""# + String(repeating: "x", count: 5000) + #""}"#)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    func sameForAnyThreads(_ arguments: [String], stdin: String) async throws -> CLI.Result {
        let one = try await CLI.run(arguments + ["--threads", "1"], stdin: stdin)
        for threads in ["2", "7"] {
            let many = try await CLI.run(arguments + ["--threads", threads], stdin: stdin)
            #expect(many.status == one.status, "\(arguments) --threads \(threads)")
            #expect(many.stdout == one.stdout, "\(arguments) --threads \(threads)")
            #expect(many.stderr == one.stderr, "\(arguments) --threads \(threads)")
        }
        return one
    }

    @Test func decodeMessages() async throws {
        let r = try await sameForAnyThreads(
            ["decode", "--messages", "--max-line-bytes", "4000"], stdin: Self.envelopes)
        #expect(r.status == 1)
        let lines = try r.lines.map(CLI.json)
        let ids = lines.compactMap { $0["message_id"] as? Int }.filter { $0 > 0 }
        #expect(ids == Array(1...6_000), "one answer a message, in input order")
        #expect(lines.filter { ($0["error"] as? [String: Any])?["code"] as? String == "line_too_long" }.count == 4)
        #expect(lines.filter { $0["kind"] as? String == "malformed" }.count >= 15)
    }

    @Test func filter() async throws {
        let r = try await sameForAnyThreads(
            ["filter", "--audience", "customer", "--max-line-bytes", "4000"], stdin: Self.envelopes)
        #expect(r.status == 1)
        #expect(r.stderr.hasSuffix("19 lines skipped\n"))
        let ids = try r.lines.map { try CLI.json($0)["message_id"] as? Int ?? -1 }
        #expect(ids == ids.sorted() && !ids.isEmpty && ids.count < 6_000)
    }

    @Test func detect() async throws {
        let chat = (1...4_000).map { i in
            i % 501 == 0 ? "{" : #"{"text": "see https://example.com/\#(i) or mail a\#(i)@example.org"}"#
        }.joined(separator: "\n")
        let r = try await sameForAnyThreads(["detect", "--jsonl"], stdin: chat)
        #expect(r.status == 1)
        #expect(r.lines.count == 4_000)
        #expect(r.lines[41].contains("https://example.com/42"))
    }

    @Test func extract() async throws {
        let real = CLI.repositoryRoot.appendingPathComponent("Corpus/html/real")
        let pages = try FileManager.default.contentsOfDirectory(atPath: real.path).filter { $0.hasSuffix(".html") }
            .sorted()
        var lines: [String] = []
        for (i, page) in pages.enumerated() {
            lines.append(#"{"file": "Corpus/html/real/\#(page)", "url": "https://example.com/\#(i)/"}"#)
            if i % 7 == 0 { lines.append(#"{"file": "Corpus/html/real/missing-\#(i).html"}"#) }
        }
        let r = try await sameForAnyThreads(["extract", "--jsonl"], stdin: lines.joined(separator: "\n"))
        #expect(r.status == 1)
        #expect(r.lines.count == lines.count)
        #expect(
            r.lines.filter { $0.contains(#""cannot_read""#) }.count == lines.filter { $0.contains("missing-") }.count)
    }

    /// Lines longer than the limit that span several blocks of input, one of them the last line without
    /// its newline: each is reported at its number, and the lines around it are answered.
    @Test func linesOverTheLimitAcrossBlocks() async throws {
        func message(_ id: Int) -> String { #"{"message_id": \#(id), "message": "hi"}"# }
        let huge = #"{"message": ""# + String(repeating: "y", count: 3 << 20) + #""}"#
        let input = [message(1), message(2), "", message(3), huge, message(5), huge, huge, message(8), huge].joined(
            separator: "\n")
        let r = try await sameForAnyThreads(["decode", "--messages", "--max-line-bytes", "\(1 << 20)"], stdin: input)
        #expect(r.status == 1)
        let lines = try r.lines.map(CLI.json)
        #expect(
            lines.map { $0["message_id"] as? Int ?? -(($0["error"] as? [String: Any])?["line"] as? Int ?? 0) } == [
                1, 2, 3, -5, 5, -7, -8, 8, -10,
            ])
    }

    @Test func aThreadCountBelowOneIsRefused() async throws {
        let r = try await CLI.run(["decode", "--messages", "--threads", "0"], stdin: "")
        #expect(r.status == 64)
        #expect(r.stderr.contains("--threads must be at least 1"))
    }
}
