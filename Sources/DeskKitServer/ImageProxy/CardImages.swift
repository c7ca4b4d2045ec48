import DeskKitModel
import DeskKitPreview

/// The image a card the server writes names (the webhook's enrichment and `/v1/preview`): with the image proxy on,
/// its proxied URL — or none when the proxy would refuse what the probe found (an SVG, more pixels than allowed),
/// so that no card shows a broken image; without it, the image's own URL.
struct CardImages: Sendable {
    /// The proxy's signer; nil when the proxy is off.
    let signer: ImageURLSigner?
    /// The proxy's limits (``ServerConfiguration/imageLimits``).
    let limits: ImageLimits

    /// `card` as the server writes it.
    func written(_ card: PreviewCard) -> PreviewCard {
        guard let signer, let image = card.preview.image else { return card }
        var card = card
        let details = card.details
        if let type = details.imageType, !ImageSniff.passesOn(type) {
            card.dropImage(because: "an \(type.rawValue.uppercased()) image, which the image proxy does not pass on")
        } else if let width = details.imageWidth, let height = details.imageHeight,
            let refusal = limits.pixelRefusal(width: width, height: height)
        {
            card.dropImage(because: "the image proxy's limit: \(refusal.detail)")
        } else {
            card.preview.image = signer.proxiedURL(for: image)
        }
        return card
    }
}
