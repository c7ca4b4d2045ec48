import DeskKitMetadata
import Testing

/// Images' types and pixel sizes from their first bytes, made here byte by byte as each format lays them out.
@Suite("Image probe")
struct ImageProbeTests {
    static func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }

    static func png(_ width: Int, _ height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + be32(width) + be32(height)
            + [8, 6, 0, 0, 0] + [0, 0, 0, 0] + Array(repeating: 0, count: 100)
    }

    static func gif(_ width: Int, _ height: Int) -> [UInt8] {
        Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0] + Array(repeating: 0, count: 20)
    }

    /// A JPEG with `exif` bytes of APP1 segments (each at most 64 KiB) before its baseline frame header.
    static func jpeg(_ width: Int, _ height: Int, exif: Int = 0) -> [UInt8] {
        var bytes: [UInt8] =
            [0xFF, 0xD8, 0xFF, 0xE0] + be16(16) + Array("JFIF".utf8) + [0] + Array(repeating: 1, count: 9)
        var left = exif
        while left > 0 {
            let chunk = min(left, 65_000)
            bytes += [0xFF, 0xE1] + be16(chunk + 2) + Array(repeating: 0x45, count: chunk)
            left -= chunk
        }
        bytes += [0xFF, 0xDB] + be16(4) + [0, 0]  // a quantization table
        bytes += [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width) + [3] + Array(repeating: 1, count: 9)
        return bytes + [0xFF, 0xDA] + be16(2) + Array(repeating: 0x11, count: 64)
    }

    static func size(_ result: ImageProbe.Result) -> String? {
        guard case .image(let info) = result else { return nil }
        return "\(info.format.rawValue) \(info.width.map(String.init) ?? "?")x\(info.height.map(String.init) ?? "?")"
    }

    /// A format is a name that stays (cards store it as `image_type`); one DeskKit does not read is none.
    @Test func formatsHaveStableNames() {
        #expect(ImageInfo.Format.allCases.map(\.rawValue) == ["png", "jpeg", "gif", "webp", "avif", "svg"])
        for format in ImageInfo.Format.allCases { #expect(ImageInfo.Format(rawValue: format.rawValue) == format) }
        #expect(ImageInfo.Format(rawValue: "bmp") == nil)
        #expect("\(ImageInfo.Format.webp)" == "webp")
    }

    @Test func rasterFormats() {
        #expect(Self.size(ImageProbe.probe(Self.png(1200, 630))) == "png 1200x630")
        #expect(Self.size(ImageProbe.probe(Self.gif(320, 200))) == "gif 320x200")
        #expect(Self.size(ImageProbe.probe(Self.jpeg(1920, 1080))) == "jpeg 1920x1080")
        let vp8 =
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [0, 0, 0, 0] + [0, 0, 0, 0x9D, 0x01, 0x2A]
            + Self.le16(800) + Self.le16(600) + Array(repeating: 0, count: 8)
        #expect(Self.size(ImageProbe.probe(vp8)) == "webp 800x600")
        let w = 400 - 1, h = 300 - 1
        let bits = w | h << 14
        let vp8l =
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8L".utf8) + [0, 0, 0, 0] + [0x2F]
            + [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24 & 0xFF)]
            + Array(repeating: 0, count: 8)
        #expect(Self.size(ImageProbe.probe(vp8l)) == "webp 400x300")
        let vp8x =
            Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0] + [0, 0, 0, 0]
            + [0xFF, 0x0F, 0] + [0x37, 0x04, 0] + Array(repeating: 0, count: 8)
        #expect(Self.size(ImageProbe.probe(vp8x)) == "webp 4096x1080")
        let avif =
            Self.be32(28) + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("mif1miafavif".utf8)
            + Self.be32(20) + Array("ispe".utf8) + [0, 0, 0, 0] + Self.be32(2048) + Self.be32(1536)
        #expect(Self.size(ImageProbe.probe(avif)) == "avif 2048x1536")
        let mp4 = Self.be32(24) + Array("ftypisom".utf8) + [0, 0, 0, 0] + Array("isomiso2".utf8) + [0, 0, 0, 0]
        #expect(ImageProbe.probe(mp4) == .notAnImage, "an MP4 is ISO-BMFF but no AVIF")
    }

    @Test(arguments: [
        (#"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80px"><rect/></svg>"#, "svg 120x80"),
        (#"<?xml version="1.0"?><!-- logo --><!DOCTYPE svg><svg viewBox="0 0 24 16"></svg>"#, "svg 24x16"),
        ("\u{FEFF}  <svg width='100%' viewBox='0,0,300.4,150'>", "svg 300x150"),
        (#"<svg width="2em" height="1em">"#, "svg ?x?"),
        (#"<svg data-width="5" xwidth="7" width="9" height="3">"#, "svg 9x3"),
    ])
    func svgSizes(_ text: String, _ size: String) {
        #expect(Self.size(ImageProbe.probe(Array(text.utf8))) == size, "\(text)")
    }

    @Test func hostileAndTruncatedImages() {
        // A truncated PNG: more bytes could tell; the whole body is no image.
        let cut = Array(Self.png(10, 10).prefix(20))
        #expect(ImageProbe.probe(cut) == .needMore)
        #expect(ImageProbe.probe(cut, complete: true) == .notAnImage)
        #expect(ImageProbe.probe([0x89, 0x50, 0x4E, 0x47], complete: true) == .notAnImage)
        // A 1×1 tracking GIF is an image, and a pixel.
        guard case .image(let pixel) = ImageProbe.probe(Self.gif(1, 1)) else {
            Issue.record("a GIF")
            return
        }
        #expect(pixel.isPixel)
        #expect(!ImageInfo(format: .png, width: 1, height: 2).isPixel)
        // A JPEG whose size comes after 1 MB of EXIF: the first 256 KiB say only that it is a JPEG; all of
        // it says its size; a segment length past the end asks for more.
        let big = Self.jpeg(4000, 3000, exif: 1 << 20)
        #expect(ImageProbe.probe(Array(big.prefix(256 * 1024))) == .needMore)
        #expect(Self.size(ImageProbe.probe(Array(big.prefix(256 * 1024)), complete: true)) == "jpeg ?x?")
        #expect(Self.size(ImageProbe.probe(big)) == "jpeg 4000x3000")
        // HTML or text served as an image, a JPEG whose segments do not chain, nothing at all.
        #expect(ImageProbe.probe(Array("<!doctype html><html><head><title>Sign in</title>".utf8)) == .notAnImage)
        #expect(ImageProbe.probe(Array("just some text here".utf8), complete: true) == .notAnImage)
        #expect(ImageProbe.probe([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0, 0, 0x12, 0x34, 0, 0, 0, 0]) == .notAnImage)
        #expect(ImageProbe.probe([], complete: true) == .notAnImage)
        #expect(ImageProbe.probe([0x47]) == .needMore)
        // Zero-length JPEG segments (a loop that would never advance) are refused.
        #expect(ImageProbe.probe([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x00] + Array(repeating: 0, count: 20)) == .notAnImage)
    }
}
