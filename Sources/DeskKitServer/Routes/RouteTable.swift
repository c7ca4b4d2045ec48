import Hummingbird
import Synchronization

/// The routes a server's router has, by path and method: what the served OpenAPI document is cut to
/// (``OpenAPIRoute``) and what tells a method a path does not answer (405, with `Allow`) from a path there is not
/// (404) (``ProblemAnswers``). Filled once the router has its routes; read for every request that matched none.
final class RouteTable: Sendable {
    /// A route's path as segments, a capture (`:file`, `{file}`) as `nil`.
    typealias Segments = [Substring?]

    private let routes = Mutex<[(path: Segments, methods: Set<String>)]>([])

    /// The keys of an OpenAPI path item that are operations.
    static let operationKeys: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Takes the router's routes (Hummingbird's `Router.routes`).
    func fill(_ descriptions: some Sequence<(path: String, method: String)>) {
        var table: [(path: Segments, methods: Set<String>)] = []
        for route in descriptions {
            let path = Self.segments(ofRoute: route.path)
            if let i = table.firstIndex(where: { $0.path == path }) {
                table[i].methods.insert(route.method)
            } else {
                table.append((path, [route.method]))
            }
        }
        routes.withLock { $0 = table }
    }

    /// The methods routed at a path with these segments (a request's path, or a route's): empty when none is.
    func methods(at path: Segments) -> Set<String> {
        routes.withLock { table in
            for route in table where route.path.count == path.count {
                let matches = zip(route.path, path).allSatisfy { pattern, segment in
                    pattern == nil || segment == nil || pattern == segment
                }
                if matches { return route.methods }
            }
            return []
        }
    }

    /// A router path's segments (`/schemas/:file`, as Hummingbird writes it `/schemas/{file}`), or an OpenAPI path
    /// template's (`/schemas/{file}`).
    static func segments(ofRoute path: String) -> Segments {
        path.split(separator: "/").map { [":", "{", "*"].contains($0.first) ? nil : $0 }
    }

    /// A request path's segments, a capture matching any one.
    static func segments(ofRequest path: String) -> Segments {
        path.split(separator: "/", omittingEmptySubsequences: true).map { $0 }
    }
}
