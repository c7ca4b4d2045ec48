import Hummingbird
import NIOCore

/// `GET /openapi.yaml` and `GET /openapi.json`, open: the routes' contract (`openapi.json`, compiled in), to
/// generate a client from or test against. JSON is YAML too, so both paths serve the same document.
struct OpenAPIRoute: Sendable {
    /// The document's bytes.
    static let document = PackageResources.openapi_json

    func handle(as contentType: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: contentType],
            body: .init(byteBuffer: ByteBuffer(bytes: Self.document)))
    }
}
