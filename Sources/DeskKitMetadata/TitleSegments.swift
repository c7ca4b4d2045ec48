/// The site's part of a document title: "Bob Dylan - Wikipedia" names Wikipedia.
enum TitleSegments {
    /// Separators between a title's parts, as sites write them.
    static let separators = [" | ", " - ", " – ", " — ", " · ", " :: ", " » ", " : ", " / "]

    /// The part after the last separator when it is short (at most five words and 40 characters) and has
    /// a letter; when that part is the headline, the part before the first separator on the same terms
    /// ("Wikipedia - Bob Dylan"). Chinese titles separate with `_` ("…_科技_腾讯网"). Nil when the title
    /// has no separator, or neither end is a site name.
    static func siteSegment(of title: String, headline: String?) -> String? {
        let title = TextCleaning.collapse(TextCleaning.decodeEntities(title))
        var parts: [Substring]?
        for separator in separators {
            let split = Self.split(title, separator)
            if split.count > 1, (parts.map { split.last!.count < $0.last!.count } ?? true) { parts = split }
        }
        if parts == nil, title.contains("_"), title.unicodeScalars.contains(where: { $0.value >= 0x2E80 }) {
            parts = title.split(separator: "_", omittingEmptySubsequences: true).map { $0.drop { $0 == " " } }
        }
        guard let parts, parts.count > 1 else { return nil }
        let headline = headline.map { TextCleaning.collapse($0).lowercased() }
        func isHeadline(_ part: Substring) -> Bool { part.trimmingCharacters(in: " \t").lowercased() == headline }
        func fits(_ part: Substring) -> String? {
            let name = part.trimmingCharacters(in: " \t")
            guard !name.isEmpty, name.count <= 40, name.split(separator: " ").count <= 5,
                name.contains(where: { $0.isLetter }), !isHeadline(part)
            else { return nil }
            return name
        }
        return isHeadline(parts.last!) ? fits(parts.first!) : fits(parts.last!)
    }

    /// `title.split(separator: separator)` by `Character`s, found on the bytes: a match counts where it
    /// starts and ends between `Character`s (a space before a combining mark is not a separator's space).
    static func split(_ title: String, _ separator: String) -> [Substring] {
        var title = title
        let pattern = Array(separator.utf8)
        let matches: [Range<Int>] = title.withUTF8 { b in
            var found: [Range<Int>] = []
            var i = 0
            while i + pattern.count <= b.count {
                // Overlapping ones too: a match that is not between `Character`s leaves the next in play.
                if b[i] == pattern[0], pattern.indices.allSatisfy({ b[i + $0] == pattern[$0] }) {
                    found.append(i..<i + pattern.count)
                }
                i += 1
            }
            return found
        }
        let utf8 = title.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        var parts: [Substring] = []
        var pieceStart = title.startIndex
        var searchedTo = 0
        for match in matches where match.lowerBound >= searchedTo {
            let start = index(match.lowerBound)
            let end = index(match.upperBound)
            guard start.samePosition(in: title) != nil, end.samePosition(in: title) != nil else { continue }
            if pieceStart < start { parts.append(title[pieceStart..<start]) }
            pieceStart = end
            searchedTo = match.upperBound
        }
        if pieceStart < title.endIndex { parts.append(title[pieceStart...]) }
        return parts
    }
}
