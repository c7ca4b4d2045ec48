import DeskKitModel
import DeskKitPreview
import Logging

/// What the server does with a webhook.
public enum WebhookVerdict: Sendable, Hashable {
    /// A new user message with links and no preview: build one.
    case enrich(EnrichmentJob)
    /// Nothing to do, and why (`message_update`, not a user message, already a preview, no links, …).
    case ignore(String)

    /// Decides for `webhook`. Only `group_channel:message_send` of user messages (`MESG`) with a link that
    /// `previews` would preview (`PreviewService.linksToPreview(in:)`: an e-mail address is not one) is
    /// enriched: never an update (DeskKit's own update fires one: no loops), never a message that already
    /// carries a URL preview.
    public static func decide(_ webhook: SendbirdWebhook, previews: PreviewService) -> WebhookVerdict {
        guard webhook.category == SendbirdWebhook.messageSend else { return .ignore("category \(webhook.category)") }
        guard let message = webhook.message, let channelURL = webhook.channelURL, let id = message.messageID else {
            return .ignore("no message")
        }
        guard message.messageType == .user else { return .ignore("not a user message") }
        if case .urlPreview = message.content { return .ignore("already has a preview") }
        if message.dataType == URLPreview.dataType { return .ignore("already has a preview") }
        guard let text = message.text, case let links = previews.linksToPreview(in: text), !links.isEmpty else {
            return .ignore("no links")
        }
        // The links go with the job: the worker does not look for them again.
        return .enrich(EnrichmentJob(channelURL: channelURL, messageID: id, text: text, links: links.map(\.href)))
    }
}

/// The work of one job: the preview of the message's first link that has one, written into the message
/// through the Platform API.
struct Enricher: Sendable {
    let previews: PreviewService
    let api: PlatformAPIClient
    let metrics: ServerMetrics
    let logger: Logger

    /// What became of `job`; the queue counts and settles it.
    func process(_ job: EnrichmentJob) async -> JobOutcome {
        var log: Logger.Metadata = ["channel_url": .string(job.channelURL), "message_id": "\(job.messageID)"]
        let urls = job.links ?? previews.linksToPreview(in: job.text).map(\.href)
        let results = await previews.previews(of: urls)
        metrics.previews(results)
        if Task.isCancelled { return .cancelled }
        guard let preview = results.lazy.compactMap({ try? $0.get() }).first else {
            let errors = results.compactMap { r -> String? in
                if case .failure(let e) = r { return e.kind.rawValue } else { return nil }
            }
            log["fetch_errors"] = .string(errors.joined(separator: ","))
            logger.info("no preview for the message's links", metadata: log)
            return .finished(results.isEmpty ? .noLink : .noPreview)
        }
        let message = DeskPayload.message(.urlPreview(preview), text: job.text)
        do {
            let attempts = try await api.updateMessage(
                channelURL: job.channelURL, messageID: job.messageID, with: message)
            log["attempts"] = "\(attempts)"
            log["url"] = .string(preview.url)
            logger.info("message enriched", metadata: log)
            return .finished(.updated)
        } catch {
            log["error"] = .string(error.description)
            switch error.kind {
            case .cancelled: return .cancelled
            case .rejected:
                logger.error("message update refused", metadata: log)
                return .permanent(error.description)
            case .exhausted:
                logger.warning("message update failed", metadata: log)
                return .retryable(error.description)
            }
        }
    }
}
