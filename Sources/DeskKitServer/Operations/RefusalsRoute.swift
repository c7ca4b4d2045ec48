import DeskKitModel
import Foundation
import Hummingbird

/// `GET /v1/refusals`, behind an operator key: why messages' links got no card lately — each kind (the refusals, a
/// site policy, the fetch failures) counted over the last hour and the last day, and the latest examples with their
/// message, newest first (``RecentActivity``), each link masked (``LinkPrivacy``; `GET /v1/inspect?message_id=`
/// shows it whole).
struct RefusalsRoute: Sendable {
    let activity: RecentActivity

    func handle() -> Response {
        let (hour, day, recent) = activity.failures()
        func counts(_ kinds: [String: Int]) -> JSONValue {
            .object(
                JSONObject(
                    kinds.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                        .init(key: $0.key, value: .integer(Int64($0.value)))
                    }))
        }
        let examples: [JSONValue] = recent.map { example in
            var error = example.error
            error.detail = LinkPrivacy.maskedText(error.detail)
            return [
                "at": .string(QueueRoute.timestamp(example.at)), "url": .string(LinkPrivacy.masked(example.url)),
                "error": error.json, "refusal": .bool(error.kind.isRefusal),
                "message_id": example.messageID.map(JSONValue.integer) ?? .null,
                "link": example.link.map { .integer(Int64($0)) } ?? .null,
                "channel_url": example.channelURL.map(JSONValue.string) ?? .null,
            ]
        }
        return .json(.ok, ["last_hour": counts(hour), "last_day": counts(day), "recent": .array(examples)])
    }
}
