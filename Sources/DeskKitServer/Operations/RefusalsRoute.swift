import DeskKitModel
import Foundation
import Hummingbird

/// `GET /v1/refusals`, behind an API key: why messages' links got no card lately — each kind (the six refusals,
/// a site policy, the fetch failures) counted over the last hour and the last day, and the latest examples with
/// their message, newest first (``RecentActivity``).
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
            [
                "at": .string(QueueRoute.timestamp(example.at)), "url": .string(example.url),
                "error": example.error.json, "refusal": .bool(example.error.kind.isRefusal),
                "message_id": example.messageID.map(JSONValue.integer) ?? .null,
                "channel_url": example.channelURL.map(JSONValue.string) ?? .null,
            ]
        }
        return .json(.ok, ["last_hour": counts(hour), "last_day": counts(day), "recent": .array(examples)])
    }
}
