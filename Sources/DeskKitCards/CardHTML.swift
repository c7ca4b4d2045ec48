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
    /// The card of `preview`, or `""` when it has nothing to show. `inlineImage` may give the picture as a `data:`
    /// URL instead of its address; `language` names a picture that stands alone without a site label (its `alt`).
    public static func render(
        _ preview: URLPreview, language: InterfaceLanguage = .english, limits: LinkCard.Limits = .init(),
        inlineImage: (String) -> String? = { _ in nil }
    ) -> String {
        guard let card = LinkCard(preview, limits: limits) else { return "" }
        return render(card, language: language, inlineImage: inlineImage)
    }

    /// `card` as HTML.
    public static func render(
        _ card: LinkCard, language: InterfaceLanguage = .english, inlineImage: (String) -> String? = { _ in nil }
    ) -> String {
        var html = HTMLText()
        write(card, language: language, inlineImage: inlineImage, into: &html)
        return html.output
    }

    static func write(
        _ preview: URLPreview, language: InterfaceLanguage, inlineImage: (String) -> String?, into html: inout HTMLText
    ) {
        guard let card = LinkCard(preview) else { return }
        write(card, language: language, inlineImage: inlineImage, into: &html)
    }

    static func write(
        _ card: LinkCard, language: InterfaceLanguage, inlineImage: (String) -> String?, into html: inout HTMLText
    ) {
        if let link = card.link {
            html.raw("<a class=\"deskkit-card\" href=\"")
            html.text(link)
            html.raw("\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">")
        } else {
            html.raw("<div class=\"deskkit-card\">")
        }
        if let image = card.image {
            html.raw("<div class=\"deskkit-card-media\"><img src=\"")
            html.text(inlineImage(image.url) ?? image.url)
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
