import DeskKitModel
import Hummingbird
import NIOCore

/// `POST /v1/decode`, behind an API key and its rate.
struct DecodeRoute: Sendable {
    /// The largest body: 16 MiB.
    static let maxRequestBytes = 16 << 20

    /// JSON lines of envelopes → one line each, as `deskkit decode --messages` prints them.
    func handle(_ request: Request) async throws(RequestProblem) -> Response {
        try ContentTypeCheck.jsonLines.check(request)
        var request = request
        guard let body = try? await request.collectBody(upTo: Self.maxRequestBytes) else {
            throw RequestProblem(.contentTooLarge, "the body is over \(Self.maxRequestBytes) bytes")
        }
        var writer = JSONWriter(capacity: body.readableBytes * 2)
        var decoder = DeskMessageDecoder()
        // The lines are read where the body is, without a copy.
        body.withUnsafeReadableBytes { raw in
            let all = UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count)
            JSONLines.forEachNonBlankLine(in: all) { line, _ in
                decoder.decode(line).writeSummary(to: &writer)
                writer.append(UInt8(ascii: "\n"))
            }
        }
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: .init(byteBuffer: writer.withUnsafeBufferPointer { ByteBuffer(bytes: $0) }))
    }
}
