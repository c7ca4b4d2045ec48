import DeskKitSchemas
import Hummingbird
import NIOCore

/// `GET /schemas/{name}.json`, open: the JSON Schemas of the formats the routes read and write
/// (``DeskSchemas``), which `/openapi.json` refers to. An unknown name is 404.
///
/// A document is served with the `$id` of where it is served — `{public_url}/schemas/NAME.json`, or the
/// request's host over http without a public URL — instead of `https://deskkit.dev/schemas/NAME.json`, so that
/// a tool that reads it from the server (schemathesis, an OpenAPI generator) resolves its relative `$ref`s
/// against the server too. Nothing else in the document changes.
struct SchemaRoute: Sendable {
    /// The server's public URL (``ServerConfiguration``'s `public_url`, without a trailing slash as the setting's
    /// reader leaves it), when it has one.
    var publicURL: String?

    func handle(_ file: String?, host: String?) throws(RequestProblem) -> Response {
        guard let file, file.hasSuffix(".json"), let schema = DeskSchemas.named(file) else {
            throw RequestProblem(.notFound, "no such schema; they are listed in /openapi.json")
        }
        var text = schema.text
        if let base = base(host: host) {
            text = text.replacing(
                "\"$id\": \"\(schema.id)\"", with: "\"$id\": \"\(base)/schemas/\(schema.name).json\"",
                maxReplacements: 1)
        }
        return Response(
            status: .ok, headers: [.contentType: "application/schema+json"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Where the documents are served from, without a trailing slash; nil keeps the canonical `$id`s (a
    /// request without a usable `Host`).
    func base(host: String?) -> String? {
        if let publicURL { return publicURL }
        guard let host, !host.isEmpty, host.utf8.allSatisfy(Self.isHostByte) else { return nil }
        return "http://\(host)"
    }

    /// A letter, a digit or one of `.:-[]`: what a host and port are written with (an IP literal too).
    private static func isHostByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "-"),
            UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }
}
