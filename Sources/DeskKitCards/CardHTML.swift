import DeskKitModel

/// One preview card as an HTML fragment, drawn from its `LinkCard` (DeskKitModel) — the same elements, classes and
/// attributes as the web module's `renderPreview`, so `card.css` (and ``ConversationPage/styleSheet``) styles both:
///
/// ```html
/// <a class="deskkit-card" href="…" rel="noopener noreferrer nofollow" target="_blank">   <!-- <div> without a link -->
///   <div class="deskkit-card-media"><img src="…" alt="…" referrerpolicy="no-referrer" loading="lazy"
///     decoding="async" width="…" height="…"/></div>
///   <div class="deskkit-card-body">
///     <div class="deskkit-card-site" dir="…">…</div> <div class="deskkit-card-title" dir="…">…</div>
///     <div class="deskkit-card-description" dir="…">…</div> <div class="deskkit-card-host" dir="ltr">…</div>
///   </div>
/// </a>
/// ```
///
/// Every text is escaped; URLs are the card's (`URLSafety`); nothing is active.
public enum CardHTML {
    /// The card of `preview`, or `""` when it has nothing to show. `imageURL` maps the picture's URL — to an image
    /// proxy's, or to a `data:` URL that carries it in the page — and its answer must be a safe URL
    /// (`URLSafety`) or a base64 `data:image/` PNG, JPEG, GIF, WebP or AVIF, else the card shows no picture (nil: none), as
    /// the web module's `renderPreview` decides; `language` names a picture that stands alone without a site label
    /// (its `alt`).
    public static func render(
        _ preview: URLPreview, language: InterfaceLanguage = .english, limits: LinkCard.Limits = .init(),
        imageURL: (String) -> String? = { $0 }
    ) -> String {
        guard let card = LinkCard(preview, limits: limits) else { return "" }
        return render(card, language: language, imageURL: imageURL)
    }

    /// `card` as HTML.
    public static func render(
        _ card: LinkCard, language: InterfaceLanguage = .english, imageURL: (String) -> String? = { $0 }
    ) -> String {
        var html = HTMLText()
        write(card, language: language, imageURL: imageURL, into: &html)
        return html.output
    }

    /// The card of `preview`, its picture carried in the page when `inlineImage` gives one, else linked.
    @available(*, deprecated, message: "use render(_:language:limits:imageURL:), whose nil shows no picture")
    public static func render(
        _ preview: URLPreview, language: InterfaceLanguage = .english, limits: LinkCard.Limits = .init(),
        inlineImage: (String) -> String?
    ) -> String {
        render(preview, language: language, limits: limits, imageURL: { inlineImage($0) ?? $0 })
    }

    /// Whether `url` is a picture carried in the page: `data:image/` PNG, JPEG, GIF, WebP or AVIF in base64 — what
    /// an image mapper may answer besides a safe URL (the web module's `renderPreview` admits the same).
    package static func isInlineImage(_ url: String) -> Bool {
        let prefix = "data:image/"
        guard url.hasPrefix(prefix), let comma = url.utf8.firstIndex(of: UInt8(ascii: ",")) else { return false }
        let type = url.utf8[url.utf8.index(url.utf8.startIndex, offsetBy: prefix.utf8.count)..<comma]
        guard ["png", "jpeg", "gif", "webp", "avif"].contains(where: { type.elementsEqual(($0 + ";base64").utf8) })
        else { return false }
        var padding = 0
        for b in url.utf8[url.utf8.index(after: comma)...] {
            let digit =
                (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x2B
                || b == 0x2F
            if b == 0x3D, padding < 2 {
                padding += 1
            } else if !digit || padding > 0 {
                return false
            }
        }
        return true
    }

    static func write(
        _ preview: URLPreview, language: InterfaceLanguage, imageURL: (String) -> String?, into html: inout HTMLText
    ) {
        guard let card = LinkCard(preview) else { return }
        write(card, language: language, imageURL: imageURL, into: &html)
    }

    static func write(
        _ card: LinkCard, language: InterfaceLanguage, imageURL: (String) -> String?, into html: inout HTMLText
    ) {
        let source = card.image.flatMap { imageURL($0.url) }.flatMap {
            isInlineImage($0) || URLSafety.isSafe($0) ? $0 : nil
        }
        // A card whose only content was its picture has nothing to show without it.
        if source == nil, card.title == nil, card.description == nil { return }
        if let link = card.link {
            html.raw("<a class=\"deskkit-card\" href=\"")
            html.text(link)
            html.raw("\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">")
        } else {
            html.raw("<div class=\"deskkit-card\">")
        }
        if let image = card.image, let source {
            html.raw("<div class=\"deskkit-card-media\"><img src=\"")
            html.text(source)
            html.raw("\" alt=\"")
            switch image.alt {
            case .decorative: break
            case .text(let text): html.text(text)
            case .interfaceImageWord: html.text(language.text(.image))
            }
            html.raw("\" referrerpolicy=\"no-referrer\" loading=\"lazy\" decoding=\"async\"")
            if let (width, height) = image.size { html.raw(" width=\"\(width)\" height=\"\(height)\"") }
            html.raw("/></div>")
        }
        html.raw("<div class=\"deskkit-card-body\">")
        for (part, text) in [("site", card.site), ("title", card.title), ("description", card.description)] {
            guard let text else { continue }
            html.raw("<div class=\"deskkit-card-\(part)\" dir=\"\(text.direction.rawValue)\">")
            html.text(text.text)
            html.raw("</div>")
        }
        if let host = card.host {
            html.raw("<div class=\"deskkit-card-host\" dir=\"ltr\">")
            html.text(host)
            html.raw("</div>")
        }
        html.raw("</div>")
        html.raw(card.link == nil ? "</div>" : "</a>")
    }
}
