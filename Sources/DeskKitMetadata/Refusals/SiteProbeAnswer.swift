/// What a site answered for an address of its own that cannot exist — a made-up sibling of a link's address
/// (`/news/2024/deskkit-7f3a9c2e1b04`) — read the way the link's page is: the crawlers' test for a soft 404
/// (Bar-Yossef et al., "Sic transit gloria telae", WWW 2004), turned to every notice a site gives any address. When
/// the site answers it with the page the link got — the same title, description, image and words — that page says
/// nothing about the link: a block, a gate, a queue, an outage, a challenge, a rate limit, an app's shell
/// (`RefusalCheck.refusal(of:response:probe:)`).
package struct SiteProbeAnswer: Sendable, Hashable {
    /// The made-up address asked.
    package var url: String
    /// The status of the final answer, after redirects.
    package var status: Int
    /// Where the redirects ended.
    package var finalURL: String
    /// The answer's page, as it is compared; nil when the answer was no HTML page of 2xx.
    package var page: PagePrint?

    /// The answer to `url`, of `status`, at `finalURL`.
    package init(url: String, status: Int, finalURL: String, page: PagePrint?) {
        self.url = url
        self.status = status
        self.finalURL = finalURL
        self.page = page
    }
}

/// What two answers of a site are compared by: the title, description and image a card would show, and the words
/// of the page's heading and first text — words of letters only, so that a reference number, a time or a ray id
/// that differs from one answer to the next is no difference.
package struct PagePrint: Sendable, Hashable {
    /// The card's title, normalized, without digits; nil when there is none.
    package var title: String?
    /// The words of the card's description; nil when there is none.
    package var description: Set<String>?
    /// The card's image.
    package var image: String?
    /// The words of the heading and the first 512 bytes of the body's text.
    package var words: Set<String>

    /// The print of `page`.
    package init(_ page: PageMetadata) {
        title = page.title.map { RefusalText.normalize(String($0.unicodeScalars.filter { !("0"..."9").contains($0) })) }
        description = page.description.map(Self.words)
        image = page.image
        words = Self.words(in: [page.signals.heading, page.signals.textStart].compactMap { $0 }.joined(separator: " "))
    }

    /// The words of `text` of three letters or more, lowercase.
    static func words(in text: String) -> Set<String> {
        Set(
            RefusalText.normalize(text).split(whereSeparator: { !$0.isLetter }).filter { $0.count >= 3 }.map(
                String.init))
    }

    /// The parts of this print that `other` shares: `title`, `description`, `image`, `text` — words agree when
    /// four fifths of the words of either are in both.
    package func shared(with other: PagePrint) -> [String] {
        func agree(_ a: Set<String>, _ b: Set<String>) -> Bool {
            let union = a.union(b).count
            return union == 0 || a.intersection(b).count * 5 >= union * 4
        }
        var parts: [String] = []
        if title == other.title { parts.append("title") }
        switch (description, other.description) {
        case (nil, nil): parts.append("description")
        case (let a?, let b?) where agree(a, b): parts.append("description")
        default: break
        }
        if image == other.image { parts.append("image") }
        if agree(words, other.words) { parts.append("text") }
        return parts
    }

    /// Whether `other` is the same page: it shares every part.
    package func isSame(as other: PagePrint) -> Bool { shared(with: other).count == 4 }
}
