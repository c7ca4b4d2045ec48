import CPNG
import DeskKitCards
import DeskKitModel
import DeskKitTestSupport
import Foundation
import Testing

/// A card whose page is written right to left, laid out by a real browser: headless Chromium takes a
/// screenshot of an English and of an Arabic card on an English page, and the title's ink is found in the
/// pixels — at the card's left edge for the English title, at its right edge for the Arabic one (the card's `dir`, from ``LinkCard/Direction``).
/// Needs `apt-get install -y chromium libpng-dev` (CI installs both).
@Suite("Right-to-left cards in a browser")
struct RightToLeftScreenshotTests {
    /// The card's box on the screenshot: the page's padding (16 px), the card's width (300 px).
    static let cardLeft = 16
    static let cardRight = 16 + 300

    @Test func anArabicTitleReadsFromTheCardsRightEdge() async throws {
        let english = try await ink(ofTitle: "Parcel on its way", language: .english)
        let arabic = try await ink(ofTitle: "الطرد في الطريق", language: .english)
        #expect(english.lowerBound < Self.cardLeft + 30, "English starts at the card's left: \(english)")
        #expect(english.upperBound < Self.cardRight - 60, "and ends before its right: \(english)")
        #expect(arabic.upperBound > Self.cardRight - 30, "Arabic ends at the card's right: \(arabic)")
        #expect(arabic.lowerBound > Self.cardLeft + 60, "and starts after its left: \(arabic)")
        // On an Arabic page the English title keeps to its own left.
        let onArabicPage = try await ink(ofTitle: "Parcel on its way", language: InterfaceLanguage("ar"))
        #expect(onArabicPage.lowerBound < Self.cardRight - 150, "\(onArabicPage)")
    }

    /// The columns where the title of a card holding only `title` has dark pixels, on a page in `language`.
    /// Chromium is waited for on a thread of its own (seconds, more under load: the other suites go on).
    func ink(ofTitle title: String, language: InterfaceLanguage) async throws -> ClosedRange<Int> {
        let chromium = try #require(
            ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            },
            "needs Chromium: apt-get install -y chromium")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("rtl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let card = CardHTML.render(URLPreview(url: "https://example.com/parcel", title: title), language: language)
        let html = """
            <!DOCTYPE html><html lang="\(language.tag)" dir="\(language.direction)"><head><meta charset="utf-8"/>
            <style>\(ConversationPage.styleSheet) body{background:#fff}
            .deskkit-card{--deskkit-card-accent:#1f2328;--deskkit-card-muted:#fff;--deskkit-card-border:#fff}</style></head>
            <body>\(card)</body></html>
            """
        let page = work.appendingPathComponent("card.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let shot = work.appendingPathComponent("card.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--user-data-dir=\(work.appendingPathComponent("profile").path)", "--window-size=400,300",
            "--screenshot=\(shot.path)", page.absoluteString,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        nonisolated(unsafe) let browser = process
        try await onThreadOfItsOwn {
            try browser.run()
            browser.waitUntilExit()
        }
        let image = try PNGImage(path: shot.path)
        // The title's dark ink (text #1f2328 on white), inside the card's box.
        var columns: [Int] = []
        for y in 0..<image.height {
            for x in 0..<image.width where image.isDark(x, y) { columns.append(x) }
        }
        let first = try #require(columns.min(), "no text on the screenshot")
        return first...columns.max()!
    }
}

/// A PNG read whole as RGBA by libpng's simplified API.
struct PNGImage {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    init(path: String) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else { throw Unreadable(path: path) }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // RGBA, 8 bits a channel
        var pixels = [UInt8](repeating: 0, count: Int(image.width) * Int(image.height) * 4)
        guard png_image_finish_read(&image, nil, &pixels, 0, nil) != 0 else { throw Unreadable(path: path) }
        width = Int(image.width)
        height = Int(image.height)
        self.pixels = pixels
    }

    func isDark(_ x: Int, _ y: Int) -> Bool {
        let i = (y * width + x) * 4
        return pixels[i] < 110 && pixels[i + 1] < 110 && pixels[i + 2] < 110
    }

    struct Unreadable: Error { var path: String }
}
