import DeskKitModel
import DeskKitSchemas
import Testing

/// Every schema's `examples` read by DeskKit strictly with no problem, each payload as its kind. (That the
/// examples validate against their schemas, and that the schemas equal strict validation, is
/// Scripts/check-schemas.sh, with Python's `jsonschema` and hypothesis-jsonschema.)
@Suite("Schemas")
struct SchemaExamplesTests {
    /// The kind each payload schema's examples decode to.
    static let kinds: [String: DeskContent.Kind] = [
        "url-preview": .urlPreview, "closure-inquiry": .closureInquiry,
        "customer-satisfaction": .customerSatisfaction, "bot-answers": .botAnswers, "notification": .notification,
        "system-message": .systemMessage,
    ]

    static func examples(_ schema: DeskSchemas.Schema) throws -> [String] {
        let document = try JSONValue.parse(schema.text)
        return (document["examples"]?.arrayValue ?? []).map(\.jsonString)
    }

    @Test(arguments: DeskSchemas.all.filter { $0.name != "common" })
    func examplesAreReadWithNoProblem(_ schema: DeskSchemas.Schema) throws {
        let examples = try Self.examples(schema)
        #expect(!examples.isEmpty, "\(schema.name) has no examples")
        for example in examples {
            let problems: [PayloadProblem]
            switch schema.name {
            case "desk-message":
                problems = DeskMessage(json: example, options: .strict).problems
            case "sendbird-webhook":
                let (webhook, found) = SendbirdWebhook.decode(Array(example.utf8), options: .strict)
                problems = found + (webhook?.message?.problems ?? [])
            case "pyrus-webhook": problems = PyrusReplyWebhook.decode(Array(example.utf8), options: .strict).problems
            case "pyrus-auth": problems = PyrusAuthRequest.decode(Array(example.utf8)).problems
            case "livetex-webhook": problems = LiveTexPush.decode(Array(example.utf8), options: .strict).problems
            default:
                let decoded = DeskPayload.decode(example, expectsPayload: true, options: .strict)
                problems = decoded.problems
                if let kind = Self.kinds[schema.name] { #expect(decoded.content.kind == kind, "\(example)") }
            }
            #expect(problems.isEmpty, "\(schema.name): \(problems) in \(example)")
        }
    }

    @Test func documentsNameThemselvesAndEachOther() throws {
        #expect(DeskSchemas.all.count == 13)
        for schema in DeskSchemas.all {
            let document = try JSONValue.parse(schema.text)
            #expect(document["$id"]?.stringValue == schema.id)
            #expect(document["$schema"] == "https://json-schema.org/draft/2020-12/schema")
            #expect(document["description"]?.stringValue?.isEmpty == false)
            #expect(DeskSchemas.named(schema.name + ".json") == schema)
        }
        #expect(DeskSchemas.named("no-such") == nil)
        // Every relative reference names a document of the set.
        let names = Set(DeskSchemas.all.map { $0.name + ".json" })
        for schema in DeskSchemas.all {
            var references: [String] = []
            Self.references(in: try JSONValue.parse(schema.text), into: &references)
            for reference in references where !reference.hasPrefix("#") {
                let file = String(reference.prefix { $0 != "#" })
                #expect(names.contains(file), "\(schema.name) refers to \(reference)")
            }
        }
    }

    static func references(in value: JSONValue, into out: inout [String]) {
        if let object = value.objectValue {
            for member in object.members {
                if member.key == "$ref", let s = member.value.stringValue { out.append(s) }
                references(in: member.value, into: &out)
            }
        } else if let array = value.arrayValue {
            for element in array { references(in: element, into: &out) }
        }
    }
}
