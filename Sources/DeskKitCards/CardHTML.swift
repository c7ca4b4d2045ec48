import DeskKitModel

/// One preview card as an HTML fragment — `<a class="card">` (or `<div class="card">` when its URL is not one a
/// client may open) with its picture, site, title and description — for a chat backend's web widget: every
/// text escaped, the link and the picture written only when `URLSafety` calls them safe, nothing active.
/// ``ConversationPage/styleSheet`` styles it.
public enum CardHTML {
    /// The card of `preview`; `inlineImage` may give the picture as a `data:` URL instead of its address.
    public static func render(_ preview: URLPreview, inlineImage: (String) -> String? = { _ in nil }) -> String {
        var html = HTMLText()
        write(preview, inlineImage: inlineImage, into: &html)
        return html.output
    }

    static func write(_ preview: URLPreview, inlineImage: (String) -> String?, into html: inout HTMLText) {
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
            html.raw("\" alt=\"\"/>")
        }
        html.raw("<span class=\"card-text\">")
        for (css, value) in [
            ("site", preview.siteName), ("title", preview.title), ("description", preview.description),
        ] {
            guard let value, !value.isEmpty else { continue }
            html.raw("<span class=\"\(css)\">")
            html.text(value)
            html.raw("</span>")
        }
        html.raw("</span>")
        html.raw(preview.safeURL == nil ? "</div>" : "</a>")
    }
}
