import Foundation
import Testing

@testable import DeskKitModel

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

struct CorpusCase: Sendable, CustomStringConvertible {
    let file: String
    let kind: String
    let problems: [String]
    let encoding: String?
    let visibleToCustomer: Bool?
    let ticketClosed: Bool?
    var description: String { file }

    static func all() -> [CorpusCase] {
        let url = repositoryRoot.appendingPathComponent("Corpus/messages/EXPECTED.jsonl")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let o = try? JSONValue.parse(String(line)) else { return nil }
            return CorpusCase(
                file: o["file"]!.stringValue!, kind: o["kind"]!.stringValue!,
                problems: o["problems"]!.arrayValue!.compactMap(\.stringValue), encoding: o["encoding"]?.stringValue,
                visibleToCustomer: o["visible_to_customer"]?.boolValue, ticketClosed: o["ticket_closed"]?.boolValue)
        }
    }

    var bytes: [UInt8] {
        let url = repositoryRoot.appendingPathComponent("Corpus/messages").appendingPathComponent(file)
        return [UInt8]((try? Data(contentsOf: url)) ?? Data())
    }
}

@Suite("Corpus/messages")
struct CorpusTests {
    @Test func corpusIsThere() {
        #expect(CorpusCase.all().count >= 80)
    }

    @Test(arguments: CorpusCase.all())
    func decodesAsExpected(_ c: CorpusCase) throws {
        let kind: DeskContent.Kind
        let strictProblems: [PayloadProblem]
        if c.file.hasSuffix(".envelope.json") {
            let message: DeskMessage
            switch c.bytes.withUnsafeBufferPointer({ JSONValue.parseResult($0) }) {
            case .success(let json):
                message = DeskMessage(json: json)
                strictProblems = DeskMessage(json: json, options: .strict).problems
            case .failure:
                message = DeskMessage(json: String(decoding: c.bytes, as: UTF8.self))
                strictProblems = message.problems
            }
            kind = message.content.kind
            if let visible = c.visibleToCustomer { #expect(message.isVisible(to: .customer) == visible) }
            #expect(message.isVisible(to: .agent))
            if let closed = c.ticketClosed { #expect(message.closesTicket == closed) }
        } else {
            let decoded = DeskPayload.decode(bytes: c.bytes)
            kind = decoded.content.kind
            strictProblems = DeskPayload.decode(bytes: c.bytes, options: .strict).problems
            if let encoding = c.encoding {
                #expect(decoded.encoding.description == encoding)
                // The summary line writes the same name without building the string.
                let summary = DeskMessage(json: [
                    "message_id": 1, "data": .string(String(decoding: c.bytes, as: UTF8.self)),
                ])
                #expect(summary.summaryJSON["encoding"]?.stringValue == encoding)
            }
            if case .malformed(let m) = decoded.content {
                #expect(m.data == String(decoding: c.bytes, as: UTF8.self), "malformed data is kept whole")
            }
        }
        #expect(kind.rawValue == c.kind)
        #expect(strictProblems.map { "\($0.code)@\($0.path)" } == c.problems)
    }
}
