/// A text of the interface DeskKitCards and `deskkit demo` write, named by its key in the strings tables
/// (`Sources/DeskKitCards/Strings/<language>.json`, one file a language that a translator edits without reading
/// Swift). ``InterfaceLanguage/text(_:_:)`` looks one up.
///
/// A key's entry is a text, or — for a text with a count — an object of CLDR plural forms (`one`, `few`,
/// `many`, `other`, …: every form the language's plural rules use). `{name}` in a text is replaced by the value
/// of that name; `{count}` by the count, written as the language writes numbers.
public struct InterfaceString: Sendable, Hashable, CustomStringConvertible {
    /// The key in the tables (`reply.closed`).
    public let key: String

    init(_ key: String) { self.key = key }

    public var description: String { key }

    /// The heading of the customer's view.
    public static let customerView = Self("page.customerView")
    /// The heading of the agent's view.
    public static let agentView = Self("page.agentView")
    /// The reply bar while the ticket is open.
    public static let replyOpen = Self("reply.open")
    /// The reply bar once the ticket is closed.
    public static let replyClosed = Self("reply.closed")
    /// Said in the customer's view where a message closed the ticket.
    public static let ticketClosed = Self("notice.ticketClosed")
    /// The sender of an admin message.
    public static let support = Self("sender.support")
    /// A sender without a name or id.
    public static let someone = Self("sender.someone")
    /// The reader, as the sender of the message `deskkit preview --html` shows.
    public static let you = Self("sender.you")
    /// A payload of a type DeskKit does not know (`{type}`), said to the agent.
    public static let otherPayload = Self("note.otherPayload")
    /// Such a payload without a `type`.
    public static let noType = Self("note.noType")
    /// Malformed `data` (`{reason}`), said to the agent.
    public static let malformed = Self("note.malformed")
    /// A link without a card (`{link}`, `{reason}`), said to the agent.
    public static let noPreview = Self("note.noPreview")
    /// The reason when none is known.
    public static let noneFound = Self("note.noneFound")
    /// The closure inquiry's yes button.
    public static let inquiryClose = Self("inquiry.close")
    /// The closure inquiry's no button.
    public static let inquiryKeepOpen = Self("inquiry.keepOpen")
    /// A closure inquiry not answered yet.
    public static let inquiryWaiting = Self("inquiry.waiting")
    /// A closure inquiry answered yes.
    public static let inquiryConfirmed = Self("inquiry.confirmed")
    /// A closure inquiry answered no.
    public static let inquiryDeclined = Self("inquiry.declined")
    /// A satisfaction rating (`{count}` stars of five): plural forms.
    public static let ratingStars = Self("rating.stars")
    /// The satisfaction survey's rating control (the name of its five choices).
    public static let satisfactionRating = Self("csat.rating")
    /// The satisfaction survey's comment field.
    public static let satisfactionComment = Self("csat.comment")
    /// The satisfaction survey's submit button.
    public static let satisfactionSubmit = Self("csat.submit")
    /// A satisfaction survey not answered yet, said to the agent.
    public static let satisfactionWaiting = Self("csat.waiting")
    /// A system message's ticket (`{id}`).
    public static let ticketNumber = Self("facts.ticket")
    /// A system message's agent (`{name}`).
    public static let ticketAgent = Self("facts.agent")
    /// A size under a kilobyte (`{count}` bytes): plural forms.
    public static let bytes = Self("file.bytes")
    /// A size in kilobytes (`{count}`).
    public static let kilobytes = Self("file.kilobytes")
    /// A size in megabytes (`{count}`).
    public static let megabytes = Self("file.megabytes")
    /// A size in gigabytes (`{count}`).
    public static let gigabytes = Self("file.gigabytes")
    /// A card of a direct link to a picture: its kind (`{type}`: `PNG`).
    public static let imageFile = Self("media.image")
    /// A card of a direct link to a video (`{type}`: `MP4`).
    public static let videoFile = Self("media.video")
    /// A card of a direct link to a sound (`{type}`: `MPEG`).
    public static let audioFile = Self("media.audio")
    /// A file message's attachment without a name.
    public static let attachment = Self("file.attachment")
    /// A card's heading in a terminal when it has no site name and no title.
    public static let link = Self("card.link")
    /// A card's heading in a terminal for a picture.
    public static let image = Self("card.image")
    /// The title of the page `deskkit preview --html` writes (`{link}`).
    public static let previewTitle = Self("preview.title")
    /// `deskkit demo`'s progress (`{index}`, `{total}`, `{server}`).
    public static let demoEnriching = Self("demo.enriching")
    /// `deskkit demo`'s summary: messages enriched (`{count}`): plural forms.
    public static let demoEnriched = Self("demo.enriched")
    /// `deskkit demo`'s summary: pages fetched (`{count}`, `{server}`): plural forms.
    public static let demoFetched = Self("demo.fetched")
    /// `deskkit demo`'s summary: fetches failed (`{count}`).
    public static let demoFailed = Self("demo.failed")

    /// Every interface string; every table has each of them (a test checks).
    public static let all: [InterfaceString] = [
        .customerView, .agentView, .replyOpen, .replyClosed, .ticketClosed, .support, .someone, .you, .otherPayload,
        .noType, .malformed, .noPreview, .noneFound, .inquiryClose, .inquiryKeepOpen, .inquiryWaiting,
        .inquiryConfirmed, .inquiryDeclined, .ratingStars, .satisfactionRating, .satisfactionComment,
        .satisfactionSubmit, .satisfactionWaiting, .ticketNumber, .ticketAgent, .bytes, .kilobytes,
        .megabytes, .gigabytes, .imageFile, .videoFile, .audioFile, .attachment, .link, .image, .previewTitle,
        .demoEnriching, .demoEnriched, .demoFetched,
        .demoFailed,
    ]
}
