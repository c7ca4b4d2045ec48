import DeskKitCards
import DeskKitFetchPolicy
import DeskKitMetadata
import DeskKitModel
import Tracing

/// Builds the card of one link: the page (or the file) through the fetcher, its oEmbed answer merged in, its
/// image probed. Every request goes through the same guard and limits as the page.
struct CardBuilder: Sendable {
    let fetcher: PageFetcher
    /// Where oEmbed answers are looked for; nil: nowhere (neither the table nor discovery).
    let oEmbedProviders: OEmbedProviders?
    let probeImages: Bool
    /// The site's answer to a made-up address of its own (``SiteProbes``), started for a deep link beside its
    /// page; nil: not asked.
    let siteProbe: (@Sendable (WebURL) -> Task<SiteProbeAnswer?, Never>)?

    /// The card of `url`, written `link` in the message. A known provider's answer is asked for while the
    /// page is fetched, and makes a card when the page fails; a page's discovery link is followed when its
    /// own preview tags leave a field to fill. A deep link's site is asked for a made-up address beside the page,
    /// and a page with nothing of its own that the made-up address got too is refused
    /// (`RefusalCheck.refusal(of:response:probe:)`). A card with nothing on it — no title, description or image
    /// after the oEmbed answer too — is no card: ``FetchError/Kind/emptyShell``.
    func card(for url: WebURL, link: String) async throws(FetchError) -> PreviewCard {
        async let known = knownProviderAnswer(for: link)
        let probe = RefusalCheck.isDeepLink(url.requestString) ? siteProbe?(url) : nil
        let page: Result<FetchedPage, FetchError>
        do { page = .success(try await fetcher.fetch(url)) } catch { page = .failure(error) }
        var oEmbed = await known
        if oEmbed == nil, oEmbedProviders != nil, case .success(let p) = page, let m = p.metadata,
            let discovered = m.oEmbed,
            Self.leavesFieldsToFill(m)
        {
            oEmbed = await answer(discovered.url, format: discovered.format)
        }
        var card: PreviewCard
        let described = oEmbed?.describesPage ?? false
        switch page {
        case .success(let p):
            if let refusal = p.refusalUnlessOEmbed, !described { throw refusal }
            if !described, let probe, let m = p.metadata, let response = p.response,
                RefusalCheck.asksTheSite(about: m, response: response), let answer = await probe.value,
                let refusal = RefusalCheck.refusal(of: m, response: response, probe: answer)
            {
                throw refusal
            }
            card = Self.card(of: p, link: link, askedIn: fetcher.configuration.acceptLanguage)
        case .failure(let error):
            // The page is refused or gone, but its provider describes it: the card is the provider's.
            guard described else { throw error }
            card = PreviewCard(preview: URLPreview(url: link))
        }
        switch oEmbed {
        case .document(let document)?: card.merge(document)
        case .failed(let why)?: card.details.oEmbedError = why
        case nil: break
        }
        // An image on a host the site policy refuses is not on the card, probed or not: a reader's browser
        // would fetch it from there.
        if let image = card.preview.image, let refusal = fetcher.configuration.sitePolicy.refusal(url: image) {
            card.dropImage(because: refusal.description)
        }
        if probeImages, card.details.mediaType == nil { await probeImage(of: &card) }
        let p = card.preview
        guard [p.title, p.description, p.image].contains(where: { $0.map { !$0.isEmpty } ?? false }) else {
            throw RefusalCheck.nothingToShow
        }
        card.carryImageSize()
        return card
    }

    private enum Answer {
        case document(OEmbedDocument)
        /// Why there is none: a fetch error or a bad answer, in words.
        case failed(String)

        /// Whether the answer describes the page: it has a title or an author.
        var describesPage: Bool {
            guard case .document(let document) = self else { return false }
            return document.title != nil || document.authorName != nil
        }
    }

    /// The answer of the provider table's endpoint for `link`, if it names one.
    private func knownProviderAnswer(for link: String) async -> Answer? {
        guard let endpoint = oEmbedProviders?.endpoint(for: link) else { return nil }
        return await answer(endpoint.requestURL(for: link), format: .json)
    }

    /// The oEmbed answer at `url`, or why there is none.
    private func answer(_ url: String, format: OEmbedDocument.Format) async -> Answer {
        await traced("oembed") { span in
            if span.isRecording { span.attributes["url.full"] = SpanURL.redacted(url) }
            let answer = await FetchLog.$purpose.withValue(.oEmbed) { await fetchAnswer(url, format: format) }
            if case .failed(let why) = answer {
                span.setStatus(.init(code: .error, message: why))
            }
            return answer
        }
    }

    private func fetchAnswer(_ url: String, format: OEmbedDocument.Format) async -> Answer {
        let accept =
            format == .json
            ? "application/json+oembed, application/json;q=0.9, */*;q=0.1"
            : "text/xml+oembed, text/xml;q=0.9, application/xml;q=0.9, */*;q=0.1"
        do {
            let document = try await fetcher.fetchDocument(
                url, accept: accept, maxBytes: fetcher.configuration.maxOEmbedBytes)
            do {
                let answer = try OEmbedDocument.parse(
                    document.body, format: format, url: document.finalURL, limits: fetcher.configuration.extraction)
                FetchLog.current?.answered(answer)
                return .document(answer)
            } catch {
                let servedAs = document.contentType.map { " (served as \($0.prefix(60)))" } ?? ""
                return .failed("\(error)\(servedAs)")
            }
        } catch {
            return .failed(error.description)
        }
    }

    /// Whether a page's own preview tags leave a card field to an oEmbed answer: no title, image or site
    /// name from them (``CardField``'s table).
    static func leavesFieldsToFill(_ m: PageMetadata) -> Bool {
        !m.isTagged(.title) || !m.isTagged(.image) || !m.isTagged(.siteName)
    }

    /// The card of a fetched page or file, with the sources of its fields. Its `url` is the link as written,
    /// not the page's og:url: a page must not be able to point its card somewhere else. A file's card is
    /// described in the first of the languages it was asked in (`askedIn`) that has an interface table.
    static func card(of page: FetchedPage, link: String, askedIn languages: AcceptLanguage = .default) -> PreviewCard {
        var details = PreviewDetails()
        guard let m = page.metadata else {
            // A file: its name, what it is and its size; an image is its own picture.
            let media = page.media
            details.mediaType = media?.mediaType
            details.contentLength = media?.contentLength
            details.fileName = media?.fileName
            details.imageWidth = media?.image?.width
            details.imageHeight = media?.image?.height
            details.imageType = media?.image?.format
            let preview = URLPreview(
                url: link, siteName: nil, title: media?.fileName ?? MediaInfo.fileName(url: page.finalURL),
                description: media?.summary(in: InterfaceLanguage(languages.header)),
                image: page.isImage ? URLSafety.safeURL(page.finalURL) : nil)
            details.sources.title = preview.title.map { _ in .file }
            details.sources.description = preview.description.map { _ in .file }
            details.sources.image = preview.image.map { _ in .file }
            return PreviewCard(preview: preview, details: details)
        }
        details.charset = m.charset
        func source(_ value: String?, tagged: Bool) -> PreviewDetails.Source? {
            value == nil ? nil : tagged ? .page : .pageFallback
        }
        details.sources.title = source(m.title, tagged: m.isTagged(.title))
        details.sources.description = source(m.description, tagged: m.isTagged(.description))
        // An image no client may load (`URLSafety`: a space, a look-alike host) is no image: the payload stays valid.
        details.sources.image = source(
            m.image.flatMap(URLSafety.safeURL), tagged: !m.images.isEmpty || m.isTagged(.image))
        details.sources.siteName = source(m.siteName, tagged: m.isTagged(.siteName))
        return PreviewCard(
            preview: URLPreview(
                url: link, siteName: m.siteName, title: m.title, description: m.description,
                image: m.image.flatMap(URLSafety.safeURL)),
            details: details)
    }

    /// Fetches the card's image (its first bytes only) and writes its type and size into the details. An
    /// image that is none, a 1×1 pixel, gone (404, 410) or at a refused address is taken off the card, and so
    /// is an icon the page's body gave (no preview tag named it; under `ImageInfo.iconSize` pixels on its
    /// longer side: an arrow, a social button); one that cannot be fetched now (a time-out, a refusal) stays,
    /// unprobed, and the details say why.
    func probeImage(of card: inout PreviewCard) async {
        guard let image = card.preview.image, !image.isEmpty else { return }
        card = await traced("probe image") { span in
            if span.isRecording { span.attributes["url.full"] = SpanURL.redacted(image) }
            var card = card
            await FetchLog.$purpose.withValue(.image) { await probe(image, into: &card) }
            if let dropped = card.details.imageDropped { span.setStatus(.init(code: .error, message: dropped)) }
            return card
        }
    }

    private func probe(_ image: String, into card: inout PreviewCard) async {
        do {
            let probed = try await fetcher.fetch(image)
            if let info = probed.media?.image {
                card.details.imageWidth = info.width
                card.details.imageHeight = info.height
                card.details.imageType = info.format
                if card.details.sources.image == .pageFallback, let width = info.width, let height = info.height,
                    max(width, height) < ImageInfo.iconSize
                {
                    card.dropImage(because: "an icon of \(width)×\(height) from the page's body")
                }
            } else {
                card.dropImage(because: "not an image: \(probed.contentType ?? "no Content-Type")")
            }
        } catch {
            let gone = error.status == 404 || error.status == 410
            if gone || [.notAnImage, .notHTML, .blockedAddress, .invalidURL, .policy].contains(error.kind) {
                card.dropImage(because: error.description)
            } else {
                card.details.imageProbeError = error.description
            }
        }
    }
}
