import DeskKitModel
import DeskKitPreview

/// The image a card the server writes names (the webhook's enrichment and `/v1/preview`): with the image proxy on,
/// its proxied URL — or none when the proxy would refuse what the probe found (an SVG, more pixels than allowed),
/// so that no card shows a broken image; without it, the image's own URL.
struct CardImages: Sendable {
    /// The proxy's signer; nil when the proxy is off.
    let signer: ImageURLSigner?
    /// The proxy's pixel cap (``ServerConfiguration/imageLimits``).
    let maxPixels: Int

    /// `card` as the server writes it.
    func written(_ card: PreviewCard) -> PreviewCard {
        guard let signer, let image = card.preview.image else { return card }
        var card = card
        let details = card.details
        let pixels = (details.imageWidth ?? 0).multipliedReportingOverflow(by: details.imageHeight ?? 0)
        if details.imageType == .svg || pixels.overflow || pixels.partialValue > maxPixels {
            card.preview.image = nil
            card.preview.imageWidth = nil
            card.preview.imageHeight = nil
            card.details.sources.image = nil
            card.details.imageDropped =
                details.imageType == .svg
                ? "an SVG image, which the image proxy does not pass on"
                : "\(details.imageWidth ?? 0)×\(details.imageHeight ?? 0) pixels, over the image proxy's \(maxPixels)"
            return card
        }
        card.preview.image = signer.proxiedURL(for: image)
        return card
    }
}
