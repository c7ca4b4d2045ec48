import DeskKitPreview
import Foundation
import Testing

/// What the image proxy passes on is read from the bytes of real files (`Corpus/images`), whatever they are
/// served as.
@Suite("Image sniffing")
struct ImageSniffTests {
    static let images = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus/images")

    static func file(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: images.appendingPathComponent(name)))
    }

    @Test(arguments: [
        ("card.jpg", "image/jpeg", 600, 315), ("card.png", "image/png", 600, 315), ("card.gif", "image/gif", 120, 63),
        ("card.webp", "image/webp", 300, 158), ("card.avif", "image/avif", 300, 158),
        ("icon.ico", "image/x-icon", 32, 32),
        ("bomb-30000x30000.png", "image/png", 30000, 30000),
        // An icon's directory says 256×256; the PNG inside, which a browser decodes, says 40,000×40,000.
        ("bomb-in-icon.ico", "image/x-icon", 40000, 40000),
    ])
    func imagesPassWithTheirTypeAndSize(_ name: String, _ type: String, _ width: Int, _ height: Int) throws {
        #expect(
            ImageSniff.sniff(try Self.file(name), complete: true)
                == .image(mediaType: type, width: width, height: height))
    }

    @Test(arguments: ["script.svg", "script-utf16.svg", "script-utf16be-nobom.svg", "page.html"])
    func markupIsRefused(_ name: String) throws {
        guard case .refused = ImageSniff.sniff(try Self.file(name), complete: true) else {
            Issue.record("\(name) was not refused")
            return
        }
    }

    @Test func aFewBytesAskForMoreAndNothingIsNoImage() throws {
        #expect(ImageSniff.sniff(Array(try Self.file("card.png").prefix(10)), complete: false) == .needMore)
        #expect(ImageSniff.sniff([], complete: false) == .needMore)
        guard case .refused = ImageSniff.sniff([], complete: true) else {
            Issue.record("an empty body passed")
            return
        }
        // UTF-16 little-endian markup without its mark.
        guard
            case .refused = ImageSniff.sniff(
                Array("<svg>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), complete: true)
        else {
            Issue.record("UTF-16LE markup passed")
            return
        }
    }
}
