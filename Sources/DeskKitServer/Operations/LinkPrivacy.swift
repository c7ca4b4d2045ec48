import DeskKitPreview

/// A customer's link as logs and the console's lists show it: its scheme, host and path; each query value
/// masked, its fragment and user-info left out (`https://user:pw@shop.example/reset?token=abc#x` is
/// `https://shop.example/reset?token=REDACTED`). Password-reset and invitation tokens live in query strings; an
/// operator who needs the whole link inspects it from its job (`GET /v1/inspect?message_id=…`). The rule is the
/// spans' (OpenTelemetry's `url.full`), one for both.
enum LinkPrivacy {
    /// `url` masked.
    static func masked(_ url: String) -> String { SpanURL.redacted(url) }

    /// `text` with every http(s) URL in it masked: a refusal's detail names where a redirect led
    /// (`redirected to https://shop.example/login?next=/reset%3Ftoken%3D…`).
    static func maskedText(_ text: String) -> String {
        guard text.contains("://") else { return text }
        return text.replacing(/https?:\/\/[^\s"'<>()]+/.ignoresCase()) { masked(String($0.output)) }
    }
}
