extension CardHTML {
    /// The cards' style sheet (and the web module's messages'): `Web/card.css` as it is, less its comments and
    /// white space (a test keeps the two equal), so a server-rendered card and one `renderPreview` builds look the
    /// same. Light by default, dark under `prefers-color-scheme: dark` or a `[data-theme="dark"]` ancestor; themable
    /// with `--deskkit-card-*` custom properties (see `card.css`). ``ConversationPage/styleSheet`` includes it.
    public static let styleSheet = """
        .deskkit-card, .deskkit-message{--_background: var(--deskkit-card-background, #ffffff);--_border: var(--deskkit-card-border, #d9dde3);--_text: var(--deskkit-card-text, #1b1f24);--_muted: var(--deskkit-card-muted, #5b6570);--_accent: var(--deskkit-card-accent, #0b63ce);--_radius: var(--deskkit-card-radius, 12px);--_width: var(--deskkit-card-max-width, 22rem);--_image-height: var(--deskkit-card-max-image-height, 16rem);--_on-accent: var(--deskkit-on-accent, #ffffff);--_star: var(--deskkit-star, #a35200);}\
        .deskkit-card{display: block;box-sizing: border-box;max-width: var(--_width);overflow: hidden;border: 1px solid var(--_border);border-radius: var(--_radius);background: var(--_background);color: var(--_text);font: var(--deskkit-card-font, 14px/1.35 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);text-decoration: none;overflow-wrap: anywhere;}\
        @media (prefers-color-scheme: dark){.deskkit-card, .deskkit-message{--_background: var(--deskkit-card-background, #1f2328);--_border: var(--deskkit-card-border, #3a4048);--_text: var(--deskkit-card-text, #e8eaed);--_muted: var(--deskkit-card-muted, #a2acb7);--_accent: var(--deskkit-card-accent, #79b8ff);--_on-accent: var(--deskkit-on-accent, #0d1117);--_star: var(--deskkit-star, #ffb454);}}\
        [data-theme='dark'] .deskkit-card, [data-theme='dark'] .deskkit-message{--_background: var(--deskkit-card-background, #1f2328);--_border: var(--deskkit-card-border, #3a4048);--_text: var(--deskkit-card-text, #e8eaed);--_muted: var(--deskkit-card-muted, #a2acb7);--_accent: var(--deskkit-card-accent, #79b8ff);--_on-accent: var(--deskkit-on-accent, #0d1117);--_star: var(--deskkit-star, #ffb454);}\
        a.deskkit-card:hover .deskkit-card-title, a.deskkit-card:focus-visible .deskkit-card-title{text-decoration: underline;}\
        a.deskkit-card:focus-visible{outline: 2px solid var(--_accent);outline-offset: 2px;}\
        .deskkit-card-media{background: var(--_border);}\
        .deskkit-card-media img{display: block;width: 100%;height: auto;max-height: var(--_image-height);object-fit: cover;}\
        .deskkit-card-media[data-failed] img{visibility: hidden;}\
        .deskkit-card-media img:not([width]){aspect-ratio: 1.91 / 1;}\
        .deskkit-card-body{display: flex;flex-direction: column;gap: 2px;padding: 10px 12px;}\
        .deskkit-card-site, .deskkit-card-host{color: var(--_muted);font-size: 0.86em;overflow: hidden;text-overflow: ellipsis;white-space: nowrap;}\
        .deskkit-card-title{color: var(--_accent);font-weight: 600;display: -webkit-box;-webkit-box-orient: vertical;-webkit-line-clamp: 2;overflow: hidden;}\
        .deskkit-card-description{display: -webkit-box;-webkit-box-orient: vertical;-webkit-line-clamp: 3;overflow: hidden;}\
        .deskkit-message{color: var(--_text);font: var(--deskkit-card-font, 14px/1.35 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);overflow-wrap: anywhere;}\
        .deskkit-message > * + *{margin-top: 6px;}\
        .deskkit-bubble a, .deskkit-faq a{color: var(--_accent);}\
        .deskkit-notice, .deskkit-note, .deskkit-state, .deskkit-facts, .deskkit-faq-answer{color: var(--_muted);}\
        .deskkit-faq{margin: 0;padding-inline-start: 1.2em;}\
        .deskkit-faq-answer{display: block;}\
        .deskkit-answer, .deskkit-submit{margin-inline-end: 8px;padding: 6px 14px;border: 1px solid var(--_accent);border-radius: 999px;background: transparent;color: var(--_accent);font: inherit;cursor: pointer;}\
        .deskkit-submit, .deskkit-answer[aria-pressed='true']{background: var(--_accent);color: var(--_on-accent);}\
        .deskkit-answer:disabled, .deskkit-submit:disabled{cursor: default;opacity: 0.75;}\
        .deskkit-message :focus-visible, .deskkit-stars input:focus-visible + span{outline: 2px solid var(--_accent);outline-offset: 2px;}\
        .deskkit-stars{border: 0;margin: 0;padding: 0;}\
        .deskkit-stars legend{padding: 0;color: var(--_muted);}\
        .deskkit-stars label{position: relative;display: inline-block;font-size: 24px;line-height: 1.2;color: var(--_muted);cursor: pointer;}\
        .deskkit-stars input{position: absolute;inset: 0;opacity: 0;margin: 0;}\
        .deskkit-stars label:has(~ label input:checked), .deskkit-stars label:has(input:checked), .deskkit-rated{color: var(--_star);}\
        .deskkit-comment{display: block;}\
        .deskkit-comment span{display: block;color: var(--_muted);}\
        .deskkit-comment textarea{box-sizing: border-box;width: 100%;max-width: var(--_width);border: 1px solid var(--_muted);border-radius: 8px;background: var(--_background);color: var(--_text);font: inherit;}\
        .deskkit-rated{font-size: 18px;}
        """
}
