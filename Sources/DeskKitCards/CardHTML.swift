import DeskKitModel

/// One preview card as an HTML fragment — `<a class="card">` (or `<div class="card">` when its URL is not one a
/// client may open) with its picture, site, title and description — for a chat backend's web widget: every
/// text escaped, the link and the picture written only when `URLSafety` calls them safe, nothing active.
/// ``ConversationPage/styleSheet`` styles it.
public enum CardHTML {
    /// The card of `preview`; `inlineImage` may give the picture as a `data:` URL instead of its address.
    ///
    /// The page's texts keep their own direction (each `dir="auto"`: an Arabic title reads right to left on an
    /// English page). `language` is the interface's: a picture without a title is named in it (its `alt`),
    /// one beside a title is decoration (`alt=""`).
    public static func render(
        _ preview: URLPreview, language: InterfaceLanguage = .english, inlineImage: (String) -> String? = { _ in nil }
    ) -> String {
        var html = HTMLText()
        write(preview, language: language, inlineImage: inlineImage, into: &html)
        return html.output
    }

    static func write(
        _ preview: URLPreview, language: InterfaceLanguage, inlineImage: (String) -> String?, into html: inout HTMLText
    ) {
        if let url = preview.safeURL {
            html.raw("<a class=\"card\" href=\"")
            html.text(url)
            html.raw("\" rel=\"nofollow noopener noreferrer\">")
        } else {
            html.raw("<div class=\"card\">")
        }
        if let image = preview.safeImageURL {
            html.raw("<img src=\"")
            html.text(inlineImage(image) ?? image)
            html.raw("\" alt=\"")
            if preview.title?.isEmpty ?? true { html.text(language.text(.image)) }
            html.raw("\"/>")
        }
        html.raw("<span class=\"card-text\">")
        for (css, value) in [
            ("site", preview.siteName), ("title", preview.title), ("description", preview.description),
        ] {
            guard let value, !value.isEmpty else { continue }
            html.raw("<span class=\"\(css)\" dir=\"auto\">")
            html.text(value)
            html.raw("</span>")
        }
        html.raw("</span>")
        html.raw(preview.safeURL == nil ? "</div>" : "</a>")
    }
}
