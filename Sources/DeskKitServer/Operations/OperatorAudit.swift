import DeskKitPreview
import DeskKitTime
import Foundation
import Logging

/// The audit trail: every operator action that changes something — one job retried (`retry`), the failed jobs
/// retried (`retry_failed`), a cached card forgotten (`forget`) — is one structured log line (level notice,
/// "operator action") with the key's name (`operator`, `RequestKey`; never the key), the `action`, what it touched
/// (`message_ids`, at most ``maxIDs`` of them, and `count`; a forgotten card's `url`, masked as every link in the
/// logs is: ``LinkPrivacy``) and the time (`at`, ISO 8601 on the server's clock), and is counted by action in
/// `deskkit_operator_actions_total{action}`.
struct OperatorAudit: Sendable {
    let metrics: ServerMetrics
    let logger: Logger
    let clock: ServiceClock

    /// The most message ids one line names: 100 (its `count` says how many there were).
    static let maxIDs = 100

    /// Records `action`, which touched `messageIDs` (`count` of them; more than the ids when a store counted
    /// more) or the card of `url`.
    func record(_ action: String, messageIDs: [Int64] = [], count: Int, url: String? = nil) {
        var metadata: Logger.Metadata = [
            "operator": .string(RequestKey.current?.name ?? "-"), "action": .string(action),
            "count": "\(count)", "at": .string(clock.now().formatted(.iso8601)),
        ]
        if !messageIDs.isEmpty {
            metadata["message_ids"] = .string(
                messageIDs.prefix(Self.maxIDs).map(String.init).joined(separator: ",")
                    + (messageIDs.count > Self.maxIDs ? ",…" : ""))
        }
        if let url { metadata["url"] = .string(LinkPrivacy.masked(url)) }
        logger.notice("operator action", metadata: metadata)
        metrics.count("deskkit_operator_actions_total", [("action", action)])
    }
}
