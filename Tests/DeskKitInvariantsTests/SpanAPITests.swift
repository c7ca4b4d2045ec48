import DeskKitInvariants
import DeskKitLinks
import DeskKitMetadata
import DeskKitModel
import Testing

/// The public entry points that read bytes in place take a `Span<UInt8>` (no public API takes an unsafe
/// pointer), and each answers as the entry point over a `String` or an array does.
@Suite("Span entry points")
struct SpanAPITests {
    static let envelope =
        #"{"type":"ADMM","message_id":7,"message":"Solved?","custom_type":"SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE","data":"{\"type\":\"SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE\",\"body\":{\"state\":\"WAITING\"}}"}"#

    @Test func messages() {
        let bytes = Array(Self.envelope.utf8)
        let message = DeskMessage(jsonBytes: bytes.span)
        #expect(message == DeskMessage(json: Self.envelope))
        if case .closureInquiry = message.content.kind {} else { Issue.record("read as \(message.content.kind)") }
        var decoder = DeskMessageDecoder()
        #expect(decoder.decode(bytes.span) == message)
        #expect(decoder.visibility(of: bytes.span, for: .customer) == .success(message.visibility(for: .customer)))
        #expect(DeskValidation.problems(inLine: bytes.span).isEmpty)
        let broken = Array(#"{"type":"MESG","data":"{\"type\":"}"#.utf8)
        #expect(!DeskValidation.problems(inLine: broken.span).isEmpty)
    }

    @Test func json() throws {
        let text = #"{"a":[1,"é",null]}"#
        #expect(try JSONValue.parse(Array(text.utf8).span) == JSONValue.parse(text))
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Array("[1,".utf8).span) }
        #expect(error?.offset == 3)
        var writer = JSONWriter()
        writer.write(try JSONValue.parse(text))
        #expect(writer.withBytes { Array(copying: $0) } == Array(text.utf8))
        let decoded = try Base64.decode(Array("aGk=".utf8).span)
        #expect(decoded.bytes == Array("hi".utf8))
    }

    @Test func linksAndImages() {
        let text = "see example.com/a and https://пример.рф"
        #expect(LinkDetector().links(utf8: Array(text.utf8).span) == LinkDetector().links(in: text))
        let gif = Array("GIF89a".utf8) + [0x40, 0x01, 0xC8, 0x00] + Array(repeating: 0, count: 20)
        #expect(ImageProbe.probe(gif.span) == ImageProbe.probe(gif))
        if case .image(let info) = ImageProbe.probe(gif.span) {
            #expect(info.width == 320 && info.height == 200)
        } else {
            Issue.record("a GIF's size was not read")
        }
    }

    @Test func fuzzTargets() throws {
        for target in FuzzTarget.allCases { try target.check(Array(Self.envelope.utf8).span) }
    }
}

extension Array where Element == UInt8 {
    /// The span's bytes, copied.
    init(copying span: Span<UInt8>) { self = span.withUnsafeBufferPointer { Array($0) } }
}
