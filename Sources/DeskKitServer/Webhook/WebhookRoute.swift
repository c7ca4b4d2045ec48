import DeskKitModel
import DeskKitPreview
import Hummingbird
import Logging

/// `POST /webhooks/sendbird`, behind the ``SignatureCheck``: the webhook decoded, its `WebhookVerdict`,
/// and the job submitted to the `EnrichmentQueue` — answered as soon as the job is committed.
struct WebhookRoute: Sendable {
    let queue: EnrichmentQueue
    let previews: PreviewService
    let metrics: ServerMetrics
    let activity: RecentActivity
    let logger: Logger

    func handle(_ request: Request) async throws(RequestProblem) -> Response {
        try ContentTypeCheck.json.check(request)
        var request = request
        // Read and checked by the signature check: here it is in memory.
        guard let body = try? await request.collectBody(upTo: .max) else {
            throw RequestProblem(.badRequest, "the body cannot be read")
        }
        let (webhook, problems) = SendbirdWebhook.decode(body.readableBytesView)
        guard let webhook else {
            metrics.webhook(.badRequest)
            let first = problems.first.map { "\($0.path): \($0.message)" } ?? "not a webhook"
            throw RequestProblem(.badRequest, "not a Sendbird webhook: \(first)", problems: problems)
        }
        let verdict = WebhookVerdict.decide(webhook, previews: previews)
        guard let job = verdict.job else {
            metrics.webhook(.ignored)
            return .json(.ok, ["status": "ignored", "reason": .string(verdict.ignoreReason?.description ?? "")])
        }
        let admission = await queue.submit(job)
        let refusal: (ServerMetrics.Webhook, String, retryAfter: String)
        switch admission {
        case .accepted:
            metrics.webhook(.queued)
            activity.admitted()
            logger.debug(
                "message queued",
                metadata: ["channel_url": .string(job.channelURL), "message_id": "\(job.messageID)"])
            return .json(.ok, ["status": "queued"])
        case .duplicate:
            metrics.webhook(.duplicate)
            return .json(.ok, ["status": "duplicate"])
        case .full: refusal = (.queueFull, "the work queue is full", "1")
        case .closed: refusal = (.shuttingDown, "shutting down", "1")
        default: refusal = (.storeUnavailable, "the job store cannot commit the job", "5")  // .unavailable
        }
        metrics.webhook(refusal.0)
        logger.warning(
            "webhook refused", metadata: ["reason": .string(admission.rawValue), "message_id": "\(job.messageID)"])
        throw RequestProblem(.serviceUnavailable, refusal.1, headers: [.retryAfter: refusal.retryAfter])
    }
}
