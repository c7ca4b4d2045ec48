import DeskKitSchemas
import Hummingbird
import NIOCore

/// `GET /schemas/{name}.json`, open: the JSON Schemas of the formats the routes read and write
/// (``DeskSchemas``), which `/openapi.json` refers to. An unknown name is 404.
struct SchemaRoute: Sendable {
    func handle(_ file: String?) throws(RequestProblem) -> Response {
        guard let file, file.hasSuffix(".json"), let schema = DeskSchemas.named(file) else {
            throw RequestProblem(.notFound, "no such schema; they are listed in /openapi.json")
        }
        return Response(
            status: .ok, headers: [.contentType: "application/schema+json"],
            body: .init(byteBuffer: ByteBuffer(string: schema.text)))
    }
}
