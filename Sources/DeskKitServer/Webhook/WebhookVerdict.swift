import DeskKitJobStore
import DeskKitModel
import DeskKitPreview

/// What the server does with a webhook: a job to run, or why there is none. A struct rather than an enum,
/// so that a verdict added later breaks no `switch`.
package struct WebhookVerdict: Sendable, Hashable {
    /// The job to run, when the webhook asks for work.
    package let job: EnrichmentJob?
    /// Why the webhook needs no work, when it needs none.
    package let ignoreReason: IgnoreReason?

    /// A new user message with links and no preview: build one.
    package static func enrich(_ job: EnrichmentJob) -> WebhookVerdict { WebhookVerdict(job: job, ignoreReason: nil) }
    /// Nothing to do, and why.
    package static func ignore(_ reason: IgnoreReason) -> WebhookVerdict {
        WebhookVerdict(job: nil, ignoreReason: reason)
    }

    /// Why a webhook needs no work; its ``description`` is the `reason` of the webhook's answer. A struct
    /// rather than an enum, so that a reason added later breaks no `switch`.
    package struct IgnoreReason: Sendable, Hashable, CustomStringConvertible {
        private enum Code: Hashable { case category(String), noMessage, notUserMessage, alreadyPreviewed, noLinks }
        private let code: Code

        /// Not `group_channel:message_send` (an update — DeskKit's own fires one —, a read receipt, …).
        package static func category(_ category: String) -> IgnoreReason { IgnoreReason(code: .category(category)) }
        /// The webhook carries no message, or one without a channel or an id.
        package static let noMessage = IgnoreReason(code: .noMessage)
        /// An admin or file message.
        package static let notUserMessage = IgnoreReason(code: .notUserMessage)
        /// The message already carries a URL preview.
        package static let alreadyPreviewed = IgnoreReason(code: .alreadyPreviewed)
        /// The text has no link that would be previewed (an e-mail address is not one).
        package static let noLinks = IgnoreReason(code: .noLinks)

        package var description: String {
            switch code {
            case .category(let category): "category \(category)"
            case .noMessage: "no message"
            case .notUserMessage: "not a user message"
            case .alreadyPreviewed: "already has a preview"
            case .noLinks: "no links"
            }
        }
    }

    /// Decides for `webhook`. Only `group_channel:message_send` of user messages (`MESG`) with a link that
    /// `previews` would preview (`PreviewService.linksToPreview(in:)`: an e-mail address is not one) is
    /// enriched: never an update (DeskKit's own update fires one: no loops), never a message that already
    /// carries a URL preview. The job asks the pages for the sender's language
    /// (`SendbirdWebhook.senderLanguage`) when the webhook tells it.
    package static func decide(_ webhook: SendbirdWebhook, previews: PreviewService) -> WebhookVerdict {
        guard webhook.category == SendbirdWebhook.messageSend else { return .ignore(.category(webhook.category)) }
        guard let message = webhook.message, let channelURL = webhook.channelURL, let id = message.messageID else {
            return .ignore(.noMessage)
        }
        guard message.messageType == .user else { return .ignore(.notUserMessage) }
        if case .urlPreview = message.content { return .ignore(.alreadyPreviewed) }
        if message.dataType == URLPreview.dataType { return .ignore(.alreadyPreviewed) }
        guard let text = message.text, case let links = previews.linksToPreview(in: text), !links.isEmpty else {
            return .ignore(.noLinks)
        }
        // The links go with the job: the worker does not look for them again. So does the sender's language,
        // when it is one (a value that is no language leaves the server's).
        let language = webhook.senderLanguage.flatMap { try? AcceptLanguage($0) }
        return .enrich(
            EnrichmentJob(
                channelURL: channelURL, messageID: id, text: text, links: links.map(\.href),
                language: language?.header))
    }
}
