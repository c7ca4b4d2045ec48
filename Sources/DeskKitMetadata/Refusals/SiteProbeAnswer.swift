/// What a site answered for an address of its own that cannot exist — a made-up sibling of a link's address
/// (`/news/2024/deskkit-7f3a9c2e1b04`) — read the way the link's page is: the crawlers' test for a soft 404
/// (Bar-Yossef et al., "Sic transit gloria telae", WWW 2004), turned to every notice a site gives any address. When
/// the site answers it with the page the link got — the same title, description, image and words — that page says
/// nothing about the link: a block, a gate, a queue, an outage, a challenge, a rate limit, an app's shell
/// (``RefusalCheck/refusal(of:response:probe:)``).
public struct SiteProbeAnswer: Sendable, Hashable {
    /// The made-up address asked.
    public var url: String
    /// The status of the final answer, after redirects.
    public var status: Int
    /// Where the redirects ended.
    public var finalURL: String
    /// The answer's page, as it is compared; nil when the answer was no HTML page of 2xx.
    public var page: PagePrint?

    /// The answer to `url`, of `status`, at `finalURL`.
    public init(url: String, status: Int, finalURL: String, page: PagePrint?) {
        self.url = url
        self.status = status
        self.finalURL = finalURL
        self.page = page
    }
}

/// What two answers of a site are compared by: the title, description and image a card would show, and the words
/// of the page's heading and first text (letters only: a reference number, a time or a ray id that differs from
/// one answer to the next is no difference).
public struct PagePrint: Sendable, Hashable {
    /// The card's title, normalized; nil when there is none.
    public var title: String?
    /// The card's description, normalized.
    public var description: String?
    /// The card's image.
    public var image: String?
    /// The words, of three letters or more, of the heading and the first 512 bytes of the body's text, lowercase.
    public var words: Set<String>

    /// The print of `page`.
    public init(_ page: PageMetadata) {
        func clean(_ text: String?) -> String? {
            text.map { RefusalText.normalize(String($0.unicodeScalars.filter { !("0"..."9").contains($0) })) }
        }
        title = clean(page.title)
        description = clean(page.description)
        image = page.image
        let text = [page.signals.heading, page.signals.textStart].compactMap { $0 }.joined(separator: " ")
        words = Set(
            RefusalText.normalize(text).split(whereSeparator: { !$0.isLetter }).filter { $0.count >= 3 }.map(String.init)
        )
    }

    /// The parts of this print that `other` shares: `title`, `description`, `image`, `text` (four fifths of the
    /// words of either in common, or no words in both).
    public func shared(with other: PagePrint) -> [String] {
        var parts: [String] = []
        if title == other.title { parts.append("title") }
        if description == other.description { parts.append("description") }
        if image == other.image { parts.append("image") }
        let union = words.union(other.words).count
        if union == 0 || words.intersection(other.words).count * 5 >= union * 4 { parts.append("text") }
        return parts
    }

    /// Whether `other` is the same page: it shares every part.
    public func isSame(as other: PagePrint) -> Bool { shared(with: other).count == 4 }
}
