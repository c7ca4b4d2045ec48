import DeskKitCards
import DeskKitMetadata
import DeskKitPageServer
@testable import DeskKitPreview
import Testing

/// Files made byte by byte as their formats lay them out (the first bytes are what is probed).
enum MediaFiles {
    static func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    static func png(_ width: Int, _ height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + be32(width) + be32(height)
            + [8, 6, 0, 0, 0, 0, 0, 0, 0] + Array(repeating: 0x5A, count: 200_000)
    }

    static let pixelGIF: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + Array(repeating: 0, count: 30)

    /// A JPEG whose frame header follows 1 MB of EXIF segments.
    static let exifJPEG: [UInt8] = {
        var bytes: [UInt8] = [0xFF, 0xD8]
        for _ in 0..<17 { bytes += [0xFF, 0xE1, 0xEA, 0x62] + Array(repeating: 0x45, count: 60_000) }
        return bytes + [0xFF, 0xC0, 0, 17, 8, 0x0B, 0xB8, 0x0F, 0xA0, 3] + Array(repeating: 1, count: 9) + [0xFF, 0xD9]
    }()
}

/// Direct links to files, and the images of cards, against a real server on 127.0.0.2.
@Suite("Media links and image probes", .serialized, .timeLimit(.minutes(10)))
struct MediaLinkTests {
    static func start() async throws -> PageServer {
        try await PageServer.start(host: "127.0.0.2") { path in
            switch path {
            case "/shots/screen%20shot.png":
                .init(headers: [("Content-Type", "image/png")], body: .bytes(MediaFiles.png(1280, 800)))
            case "/pixel.gif": .init(headers: [("Content-Type", "image/gif")], body: .bytes(MediaFiles.pixelGIF))
            case "/cut.png":
                .init(headers: [("Content-Type", "image/png")], body: .bytes([0x89, 0x50, 0x4E, 0x47, 0x0D]))
            case "/login.png":
                .init(headers: [("Content-Type", "image/png")], body: .bytes(Array("<html><title>Log in</title>".utf8)))
            case "/photo.jpg": .init(headers: [("Content-Type", "image/jpeg")], body: .bytes(MediaFiles.exifJPEG))
            case "/endless.png":
                .init(
                    headers: [("Content-Type", "image/png")], body: .endless(chunk: Array(repeating: 0x89, count: 4096))
                )
            case "/files/7":
                .init(
                    headers: [
                        ("Content-Type", "application/pdf"),
                        (
                            "Content-Disposition",
                            #"attachment; filename="inv.pdf"; filename*=UTF-8''Invoice%20%E2%84%961138.pdf"#
                        ),
                    ], body: .bytes(Array(repeating: 0x25, count: 2_400_000)))
            case "/clip.mp4":
                .init(headers: [("Content-Type", "video/mp4")], body: .endless(chunk: Array(repeating: 0, count: 4096)))
            case "/card": .html(#"<title>Card</title><meta property="og:image" content="/shots/screen%20shot.png">"#)
            case "/tracked": .html(#"<title>Tracked</title><meta property="og:image" content="/pixel.gif">"#)
            case "/gone": .html(#"<title>Gone</title><meta property="og:image" content="/missing.png">"#)
            case "/busy": .html(#"<title>Busy</title><meta property="og:image" content="/busy.png">"#)
            case "/busy.png": .init(status: 503)
            case "/arrow.png": .init(headers: [("Content-Type", "image/png")], body: .bytes(MediaFiles.png(11, 11)))
            case "/button.png": .init(headers: [("Content-Type", "image/png")], body: .bytes(MediaFiles.png(47, 20)))
            case "/thumb.png": .init(headers: [("Content-Type", "image/png")], body: .bytes(MediaFiles.png(48, 48)))
            case "/manual": .html(#"<title>Manual</title><h1>mod_rewrite</h1><img src="/arrow.png"><p>Rules.</p>"#)
            case "/share": .html(#"<title>Share</title><h1>Post</h1><img src="/button.png">"#)
            case "/thumbnail": .html(#"<title>Thumbnail</title><h1>Post</h1><img src="/thumb.png">"#)
            case "/tagged-icon": .html(#"<title>Tagged</title><meta property="og:image" content="/arrow.png">"#)
            case "/respelt-host":
                .html(#"<title>Respelt</title><meta property="og:image" content="http://0x7f.1/i.png">"#)
            case "/look-alike":
                .html(#"<title>Look-alike</title><meta property="og:image" content="https://ｅxample.com/i.png">"#)
            default: .init(status: 404)
            }
        }
    }

    static func fetcher(_ server: PageServer) -> PageFetcher {
        PageFetcher(configuration: TestServer.configuration(server), clock: TestServer.still)
    }

    @Test func anImageLinkIsProbedForItsSizeWithoutReadingItAll() async throws {
        let server = try await Self.start()
        try await server.scoped {
            let fetcher = Self.fetcher(server)
            let shot = try await fetcher.fetch(server.baseURL + "/shots/screen%20shot.png")
            #expect(shot.media?.image == ImageInfo(format: .png, width: 1280, height: 800))
            #expect(shot.media?.fileName == "screen shot.png")
            let card = CardBuilder.card(of: shot, link: server.baseURL + "/shots/screen%20shot.png").preview
            #expect(card.title == "screen shot.png")
            #expect(card.image == server.baseURL + "/shots/screen%20shot.png")
            #expect(card.description?.hasPrefix("Image (PNG), 1280×800") == true)
            // Its size after 1 MB of EXIF: past the probe's 256 KiB, the type without a size.
            let photo = try await fetcher.fetch(server.baseURL + "/photo.jpg")
            #expect(photo.media?.image == ImageInfo(format: .jpeg, width: nil, height: nil))
            // An endless body served as an image: the probe reads its bound and stops.
            await expectFailure(.notAnImage) { () async throws(FetchError) in
                try await fetcher.fetch(server.baseURL + "/endless.png")
            }
        }
    }

    /// An image no client may load (`URLSafety`) is left off the card, so the payload written is valid.
    @Test func anImageNoClientMayLoadIsNoImage() async throws {
        let server = try await Self.start()
        try await server.scoped {
            let fetcher = Self.fetcher(server)
            for path in ["/respelt-host", "/look-alike"] {
                let page = try await fetcher.fetch(server.baseURL + path)
                #expect(page.metadata?.image != nil, "the page names an image: \(path)")
                let card = CardBuilder.card(of: page, link: server.baseURL + path)
                #expect(card.preview.title != nil && card.preview.image == nil, "\(path)")
                #expect(card.details.sources.image == nil)
            }
        }
    }

    @Test func imagesThatAreNoneGiveNoCard() async throws {
        let server = try await Self.start()
        try await server.scoped {
            let fetcher = Self.fetcher(server)
            for path in ["/pixel.gif", "/cut.png", "/login.png"] {
                await expectFailure(.notAnImage) { () async throws(FetchError) in
                    try await fetcher.fetch(server.baseURL + path)
                }
            }
        }
    }

    @Test func filesGetACardFromTheirHeaders() async throws {
        let server = try await Self.start()
        try await server.scoped {
            let fetcher = Self.fetcher(server)
            let pdf = try await fetcher.fetch(server.baseURL + "/files/7")
            #expect(
                pdf.media
                    == MediaInfo(mediaType: "application/pdf", fileName: "Invoice №1138.pdf", contentLength: 2_400_000))
            let card = CardBuilder.card(of: pdf, link: server.baseURL + "/files/7").preview
            #expect(card.title == "Invoice №1138.pdf")
            #expect(card.description == "PDF, 2.4 MB")
            #expect(card.image == nil)
            // A video that never ends is described by its headers; its body is not read.
            let clip = try await fetcher.fetch(server.baseURL + "/clip.mp4")
            #expect(clip.media?.mediaType == "video/mp4")
            #expect(CardBuilder.card(of: clip, link: "x").preview.title == "clip.mp4")
            #expect(CardBuilder.card(of: clip, link: "x").details.sources.title == .file)
        }
    }

    @Test func aCardsImageIsProbedAndDroppedWhenItIsNone() async throws {
        let server = try await Self.start()
        try await server.scoped {
            let fetcher = Self.fetcher(server)
            let service = PreviewService(fetcher: fetcher)
            let good = try await service.card(for: server.baseURL + "/card").get()
            #expect(good.preview.image == server.baseURL + "/shots/screen%20shot.png")
            #expect(
                good.details.imageWidth == 1280 && good.details.imageHeight == 800 && good.details.imageType == .png)
            #expect(good.details.json["image_width"] == 1280)
            // The payload carries the size, so a client lays the card out before the image arrives.
            #expect(good.preview.imageWidth == 1280 && good.preview.imageHeight == 800)
            #expect(good.preview.bodyJSON["image_width"] == 1280 && good.preview.bodyJSON["image_height"] == 800)
            for path in ["/tracked", "/gone"] {
                let dropped = try await service.card(for: server.baseURL + path).get()
                #expect(dropped.preview.image == nil, "\(path)")
                #expect(dropped.details.imageDropped != nil)
                #expect(dropped.details.sources.image == nil)
                #expect(dropped.preview.title != nil)
            }
            // A server error is no proof the image is gone: it stays, unprobed, and the details say why.
            let busy = try await service.card(for: server.baseURL + "/busy").get()
            #expect(busy.preview.image == server.baseURL + "/busy.png")
            #expect(busy.details.imageProbeError == "http_status: HTTP 503")
            #expect(busy.details.imageDropped == nil)
            // Probing off: the image stays as the page gave it.
            var unprobed = PreviewService.Configuration()
            unprobed.probeImages = false
            let kept = try await PreviewService(fetcher: fetcher, configuration: unprobed).card(
                for: server.baseURL + "/tracked"
            ).get()
            #expect(kept.preview.image == server.baseURL + "/pixel.gif")
            #expect(kept.details.imageWidth == nil)
        }
    }

    /// A picture from the page's body under 48 pixels on its longer side is an icon, not the page's image; one
    /// the page's preview tags name stays whatever its size (the site chose it).
    @Test func anIconFromThePagesBodyIsNoImage() async throws {
        let server = try await Self.start()
        try await server.scoped {
            let service = PreviewService(fetcher: Self.fetcher(server))
            for path in ["/manual", "/share"] {
                let card = try await service.card(for: server.baseURL + path).get()
                #expect(card.preview.image == nil, "\(path)")
                #expect(card.details.imageDropped?.hasPrefix("an icon of ") == true, "\(path)")
                #expect(card.details.sources.image == nil)
            }
            let thumbnail = try await service.card(for: server.baseURL + "/thumbnail").get()
            #expect(thumbnail.preview.image == server.baseURL + "/thumb.png")
            #expect(thumbnail.details.sources.image == .pageFallback)
            let tagged = try await service.card(for: server.baseURL + "/tagged-icon").get()
            #expect(tagged.preview.image == server.baseURL + "/arrow.png")
            #expect(tagged.details.imageWidth == 11 && tagged.details.imageDropped == nil)
        }
    }

    /// An image that cannot be fetched now (its server is down) stays on the card, unprobed: the reader's
    /// browser may still load it.
    @Test func anImageThatCannotBeFetchedNowStays() async throws {
        let server = try await Self.start()
        try await server.scoped {
            let down = try await PageServer.start(host: "127.0.0.2") { _ in .html("") }
            let downURL = down.baseURL
            try await down.stop()
            let page = try await PageServer.start(host: "127.0.0.2") { _ in
                .html(#"<title>T</title><meta property="og:image" content="\#(downURL)/a.png">"#)
            }
            try await page.scoped {
                var c = TestServer.configuration(server)
                c.allowedPorts.insert(page.port)
                c.allowedPorts.insert(down.port)
                let card = try await PreviewService(fetcher: PageFetcher(configuration: c, clock: TestServer.still))
                    .card(
                        for: page.baseURL + "/"
                    ).get()
                #expect(card.preview.image == downURL + "/a.png")
                #expect(card.details.imageProbeError?.hasPrefix("connection") == true, "\(card.details)")
                #expect(card.details.imageDropped == nil)
            }
        }
    }

    @Test(
        arguments: [
            (#"attachment; filename="a.pdf""#, "a.pdf"),
            (#"inline; filename=../../etc/passwd"#, "passwd"),
            (#"attachment; filename*=UTF-8''%E6%9B%B8%E9%A1%9E.pdf; filename="fallback.pdf""#, "書類.pdf"),
            (#"attachment; filename*=UTF-8''%FF.pdf; filename="fallback.pdf""#, "fallback.pdf"),
            (#"attachment; filename="""#, nil),
            ("attachment", nil),
        ] as [(String, String?)])
    func fileNamesFromContentDisposition(_ header: String, _ name: String?) {
        #expect(MediaInfo.fileName(contentDisposition: header) == name, "\(header)")
    }

    @Test func sizesReadAsFileManagersShowThem() {
        let english = InterfaceLanguage.english
        #expect(english.fileSize(980) == "980 bytes")
        #expect(english.fileSize(12_345) == "12 KB")
        #expect(english.fileSize(2_400_000) == "2.4 MB")
        #expect(english.fileSize(1_100_000_000) == "1.1 GB")
    }

    /// A file's card speaks the language its page was asked in: the kind of file and its size.
    @Test func aFilesCardIsDescribedInTheLanguageAskedFor() {
        let png = MediaInfo(
            mediaType: "image/png", fileName: "map.png", contentLength: 3_141,
            image: ImageInfo(format: .png, width: 600, height: 315))
        #expect(png.summary == "Image (PNG), 600×315, 3 KB")
        #expect(png.summary(in: InterfaceLanguage("ru")) == "Изображение (PNG), 600×315, 3 КБ")
        #expect(png.summary(in: InterfaceLanguage("zh-CN")) == "图片（PNG）, 600×315, 3 KB")
        let pdf = MediaInfo(mediaType: "application/pdf", fileName: nil, contentLength: 2_450_000)
        #expect(pdf.summary(in: InterfaceLanguage("de")) == "PDF, 2,4 MB")
    }
}
