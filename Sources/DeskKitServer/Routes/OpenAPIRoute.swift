import DeskKitModel
import Hummingbird
import NIOCore
import Synchronization

/// `GET /openapi.yaml` and `GET /openapi.json`, open: the contract of the routes this server serves, to generate
/// a client from or test against. The document compiled in (`openapi.json`) describes every route the server can
/// have; the one served is that document cut to the routes the running configuration has: a route that is off
/// (the image proxy without its keys) is absent, as is a method it does not answer, so a client generated from it
/// calls nothing that answers "no such route". `servers` names the public URL when one is set. JSON is YAML too,
/// so both paths serve the same document. It is made at the first request, once the router has all its routes.
final class OpenAPIRoute: Sendable {
    /// The whole document, every route the server can have.
    static let whole = PackageResources.openapi_json

    private let routes: RouteTable
    private let publicURL: String?
    private let made = Mutex<[UInt8]?>(nil)

    init(routes: RouteTable, publicURL: String?) {
        self.routes = routes
        self.publicURL = publicURL
    }

    /// The document served.
    var document: [UInt8] {
        made.withLock { made in
            if let made { return made }
            let document = Self.document(cutTo: routes, publicURL: publicURL)
            made = document
            return document
        }
    }

    /// The whole document cut to `routes`, its `servers` the public URL when there is one.
    static func document(cutTo routes: RouteTable, publicURL: String?) -> [UInt8] {
        guard case .object(var root)? = try? JSONValue.parse(whole), case .object(let paths)? = root["paths"] else {
            return whole
        }
        var kept: [JSONObject.Member] = []
        for path in paths.members {
            guard case .object(let operations) = path.value else { continue }
            let methods = routes.methods(at: RouteTable.segments(ofRoute: path.key))
            let answered = operations.members.filter { operation in
                !RouteTable.operationKeys.contains(operation.key) || methods.contains(operation.key.uppercased())
            }
            if answered.contains(where: { RouteTable.operationKeys.contains($0.key) }) {
                kept.append(.init(key: path.key, value: .object(JSONObject(answered))))
            }
        }
        root.set("paths", .object(JSONObject(kept)))
        if let publicURL {
            let server: JSONObject = ["url": .string(publicURL), "description": .string("this deskkit serve")]
            root.set("servers", .array([.object(server)]))
        }
        var writer = JSONWriter()
        writer.write(.object(root))
        writer.append(UInt8(ascii: "\n"))
        return writer.withUnsafeBufferPointer { Array($0) }
    }

    func handle(as contentType: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(bytes: document)))
    }
}

extension JSONObject {
    /// Sets `key` to `value`: in place when the object has it, at the end when not.
    fileprivate mutating func set(_ key: String, _ value: JSONValue) {
        if let i = members.firstIndex(where: { $0.key == key }) {
            members[i].value = value
        } else {
            members.append(.init(key: key, value: value))
        }
    }
}
