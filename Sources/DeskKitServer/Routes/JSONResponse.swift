import DeskKitModel
import Hummingbird

extension Response {
    /// `value` as the JSON body of an answer with `status`.
    static func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        var writer = JSONWriter()
        writer.write(value)
        writer.append(UInt8(ascii: "\n"))
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: writer.withUnsafeBufferPointer { ByteBuffer(bytes: $0) }))
    }
}
