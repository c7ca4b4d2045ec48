import DeskKitModel
import Hummingbird

/// The `url` a query names (`DELETE /v1/previews?url=`, `GET /v1/inspect?url=`): present, with no control
/// character, at most ``URLSafety/maxLength`` bytes — else no card can have that URL, and the request is a 400
/// that says which.
enum QueryURL {
    static func read(_ request: Request, example: String) throws(RequestProblem) -> String {
        guard let url = request.uri.queryParameters.get("url"), !url.isEmpty else {
            throw RequestProblem(.badRequest, "the query names no url (\(example))")
        }
        if let offset = url.unicodeScalars.firstIndex(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            let at = url.unicodeScalars.distance(from: url.unicodeScalars.startIndex, to: offset)
            throw RequestProblem(.badRequest, "the url holds a control character at \(at): no card has such a URL")
        }
        guard url.utf8.count <= URLSafety.maxLength else {
            throw RequestProblem(.badRequest, "the url is over \(URLSafety.maxLength) bytes: no card has such a URL")
        }
        return url
    }
}
