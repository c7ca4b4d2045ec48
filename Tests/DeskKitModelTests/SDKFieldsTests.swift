import Foundation
import Testing

@testable import DeskKitModel

/// `DeskMessage(customType:data:text:messageID:messageType:createdAt:)`, what an iOS app reads off a `BaseMessage`,
/// against the JSON envelope of the same message: every envelope of the corpora whose members an SDK object can
/// hold (strings and integers where the SDK has them, `data` a string).
@Suite("A message from the SDK's fields")
struct SDKFieldsTests {
    /// Every envelope of Corpus/messages, Corpus/envelope and Corpus/webhooks' payloads, as JSON objects.
    static func envelopes() -> [JSONObject] {
        var out: [JSONObject] = []
        for folder in ["Corpus/messages", "Corpus/envelope"] {
            let root = repositoryRoot.appendingPathComponent(folder)
            let names = (try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".json") || name.hasSuffix(".jsonl") {
                guard let text = try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8) else {
                    continue
                }
                let lines = name.hasSuffix(".jsonl") ? text.split(separator: "\n").map(String.init) : [text]
                for line in lines {
                    if case .object(let o)? = try? JSONValue.parse(line) { out.append(o) }
                }
            }
        }
        return out
    }

    /// The SDK's fields of `envelope`, or nil when one of its members is of a type no SDK object holds.
    static func fields(_ envelope: JSONObject) -> DeskMessage? {
        func string(_ key: String) -> (ok: Bool, value: String?) {
            switch envelope[key] {
            case nil: return (true, nil)
            case .string(let s)?: return (true, s)
            default: return (false, nil)
            }
        }
        func integer(_ key: String) -> (ok: Bool, value: Int64?) {
            switch envelope[key] {
            case nil: return (true, nil)
            case .integer(let i)?: return (true, i)
            default: return (false, nil)
            }
        }
        let type = string("type")
        let id = integer("message_id")
        let text = string("message")
        let customType = string("custom_type")
        let createdAt = integer("created_at")
        guard case .string(let data)? = envelope["data"], type.ok, id.ok, text.ok, customType.ok, createdAt.ok else {
            return nil
        }
        // Keys written twice are the envelope's own problem, which no SDK object has.
        guard Set(envelope.members.map(\.key)).count == envelope.count else { return nil }
        return DeskMessage(
            customType: customType.value, data: data, text: text.value, messageID: id.value,
            messageType: type.value.map(DeskMessage.MessageType.init(rawValue:)), createdAt: createdAt.value)
    }

    @Test func theSameMessageAsItsEnvelope() {
        var compared = 0
        for envelope in Self.envelopes() {
            guard let fromFields = Self.fields(envelope) else { continue }
            let fromJSON = DeskMessage(json: .object(envelope))
            #expect(fromFields.content == fromJSON.content, "\(JSONValue.object(envelope).jsonString.prefix(200))")
            #expect(fromFields.problems == fromJSON.problems, "\(JSONValue.object(envelope).jsonString.prefix(200))")
            #expect(fromFields.visibility(for: .customer) == fromJSON.visibility(for: .customer))
            #expect(fromFields.closesTicket == fromJSON.closesTicket)
            #expect(fromFields.encoding == fromJSON.encoding)
            #expect(fromFields.messageID == fromJSON.messageID && fromFields.messageType == fromJSON.messageType)
            compared += 1
        }
        #expect(compared >= 30, "\(compared) envelopes compared")
    }

    @Test func anAdminSystemMessageIsHiddenFromTheCustomer() {
        let message = DeskMessage(
            customType: "SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE", data: "", text: "Internal note", messageID: 9,
            messageType: .admin)
        #expect(message.visibility(for: .customer) == .hidden(.systemCustomType))
        #expect(message.isVisible(to: .agent))
        #expect(message.messageID == 9 && message.messageType == .admin && message.text == "Internal note")
    }

    @Test func onlyDataIsNeeded() {
        let closure = #"{"type":"SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE","body":{"state":"WAITING","ticketId":4021}}"#
        let message = DeskMessage(data: closure)
        #expect(message.content == .closureInquiry(ClosureInquiry(state: .waiting, ticketID: 4021)))
        #expect(message.problems.isEmpty && message.messageID == nil && message.customType == nil)
        // Text that needs escaping in JSON stays as it is.
        let quoted = DeskMessage(data: "", text: "say \"hi\"\n\\ 😀", messageType: .user)
        #expect(quoted.text == "say \"hi\"\n\\ 😀" && quoted.content == .plain)
    }

    @Test func problemsNameTheEnvelopesMembers() {
        let long = String(repeating: "x", count: DeskMessage.maxCustomTypeLength + 1)
        let message = DeskMessage(customType: long, data: "{\"type\":", messageType: .init(rawValue: "BASE"))
        #expect(Set(message.problems.map(\.path)).isSuperset(of: ["$.type", "$.custom_type", "$.data"]))
    }
}
