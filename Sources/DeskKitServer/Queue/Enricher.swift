import DeskKitJobStore
import DeskKitJobs
import DeskKitModel
import DeskKitPreview
import Logging

/// The work of one job: the preview of the message's first link that has one, written into the message
/// through the Platform API.
struct Enricher: Sendable {
    let previews: PreviewService
    let api: PlatformAPIClient
    /// Names the card's image through the image proxy, when it is configured.
    let images: CardImages
    let metrics: ServerMetrics
    /// Where the links that got no card are told, for the console.
    let activity: RecentActivity
    let logger: Logger

    /// What became of `claimed`'s job; the queue counts and settles it. The claim is confirmed right before
    /// the message update: a worker that lost its job (paused past its lease, cut from the store) does not
    /// update the message.
    func process(_ claimed: ClaimedJob) async -> JobOutcome {
        let job = claimed.job
        var log: Logger.Metadata = ["channel_url": .string(job.channelURL), "message_id": "\(job.messageID)"]
        let urls = job.links ?? previews.linksToPreview(in: job.text).map(\.href)
        let cards = await previews.cards(for: urls, language: job.language.flatMap { try? AcceptLanguage($0) })
        let results = cards.map { $0.map(\.preview) }
        metrics.previews(results)
        if Task.isCancelled { return .cancelled }
        for (i, (url, result)) in zip(urls, results).enumerated() {
            if case .failure(let error) = result {
                activity.noCard(url, error, messageID: job.messageID, channelURL: job.channelURL, link: i)
            }
        }
        guard let card = cards.lazy.compactMap({ try? $0.get() }).first else {
            let errors = results.compactMap { r -> String? in
                if case .failure(let e) = r { return e.kind.rawValue } else { return nil }
            }
            log["fetch_errors"] = .string(errors.joined(separator: ","))
            logger.info("no preview for the message's links", metadata: log)
            // A bot check may let a later fetch through; the other walls stay.
            if let challenge = results.lazy.compactMap({ r -> FetchError? in
                if case .failure(let e) = r, e.kind == .challenge { e } else { nil }
            }).first {
                return .challenged(challenge)
            }
            return results.isEmpty ? .noLink : .noPreview
        }
        let preview = images.written(card).preview
        let message = DeskPayload.message(.urlPreview(preview), text: job.text)
        guard await claimed.confirm() else {
            logger.info("message not updated: the job's claim could not be confirmed", metadata: log)
            return .unconfirmed
        }
        do {
            try await api.updateMessage(
                channelURL: job.channelURL, messageID: job.messageID, with: message,
                claimToken: claimed.claimToken == 0 ? nil : claimed.claimToken)
            log["url"] = .string(LinkPrivacy.masked(preview.url))
            logger.info("message enriched", metadata: log)
            return .updated
        } catch {
            log["error"] = .string(error.description)
            if error.kind == .cancelled { return .cancelled }
            if error.kind == .retryable {
                logger.warning("message update failed; it will be retried", metadata: log)
                return .retryable(error)
            }
            logger.error("message update refused", metadata: log)
            return .permanent(error)
        }
    }
}
