import DeskKitCards
import DeskKitMetadata

/// What a response says of a file that is not a page — an image, a PDF, a video or a sound — read from its
/// headers (and, for an image, its first bytes), without downloading the rest.
public struct MediaInfo: Sendable, Hashable {
    /// The media type, lowercased, without parameters (`application/pdf`).
    public var mediaType: String
    /// The file's name: `Content-Disposition`'s `filename*` or `filename`, else the URL path's last segment
    /// (percent-decoded), if any.
    public var fileName: String?
    /// `Content-Length`, when the server gave one.
    public var contentLength: Int?
    /// For an image, its type and pixel size from its first bytes.
    public var image: ImageInfo?

    /// A file of `mediaType`.
    public init(mediaType: String, fileName: String?, contentLength: Int?, image: ImageInfo? = nil) {
        self.mediaType = mediaType
        self.fileName = fileName
        self.contentLength = contentLength
        self.image = image
    }

    /// Whether a response of `mediaType` gets a card of its own rather than being refused as not a page:
    /// images, PDFs, video and audio.
    public static func isPreviewable(_ mediaType: String) -> Bool {
        mediaType.hasPrefix("image/") || mediaType.hasPrefix("video/") || mediaType.hasPrefix("audio/")
            || mediaType == "application/pdf"
    }

    /// The card's description in English: the kind of file and its size (`PDF, 2.4 MB`).
    public var summary: String { summary(in: .english) }

    /// The card's description in `language`: the kind of file, an image's pixel size and the file's size
    /// (`Image (PNG), 600×315, 3 KB`; `Изображение (PNG), 600×315, 3 КБ`).
    public func summary(in language: InterfaceLanguage) -> String {
        let kind: String
        let subtype = String(mediaType.drop { $0 != "/" }.dropFirst()).uppercased()
        switch mediaType {
        case "application/pdf": kind = "PDF"
        case let t where t.hasPrefix("image/"): kind = language.text(.imageFile, ["type": subtype])
        case let t where t.hasPrefix("video/"): kind = language.text(.videoFile, ["type": subtype])
        case let t where t.hasPrefix("audio/"): kind = language.text(.audioFile, ["type": subtype])
        default: kind = mediaType
        }
        var parts = [kind]
        if let image, let width = image.width, let height = image.height { parts.append("\(width)×\(height)") }
        if let contentLength { parts.append(language.fileSize(Int64(contentLength))) }
        return parts.joined(separator: ", ")
    }

    /// The file name of a `Content-Disposition` value: `filename*=UTF-8''…` (RFC 6266, percent-decoded) over
    /// `filename="…"`; only its last path component, never a path.
    static func fileName(contentDisposition value: String) -> String? {
        var plain: String?
        var extended: String?
        for part in value.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: " \t").lowercased()
            var v = pair[1].trimmingCharacters(in: " \t")
            if name == "filename*" {
                let pieces = v.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if pieces.count == 3, pieces[0].lowercased() == "utf-8" {
                    extended = String(pieces[2]).removingPercentEncoding
                }
            } else if name == "filename" {
                if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
                plain = v
            }
        }
        return (extended ?? plain).flatMap(cleanName)
    }

    /// The last segment of a URL's path, percent-decoded.
    static func fileName(url: String) -> String? {
        let path = url.split(separator: "#").first.flatMap { $0.split(separator: "?").first } ?? ""
        guard let schemeEnd = path.range(of: "://"), let slash = path[schemeEnd.upperBound...].firstIndex(of: "/")
        else { return nil }
        return path[slash...].split(separator: "/").last.flatMap {
            cleanName(String($0).removingPercentEncoding ?? String($0))
        }
    }

    /// A name without directories, control characters or surrounding space; nil when nothing is left.
    private static func cleanName(_ name: String) -> String? {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let clean = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(255))
            .trimmingCharacters(in: " \t")
        return clean.isEmpty || clean == "." || clean == ".." ? nil : clean
    }
}

extension String {
    /// `%XX` sequences decoded as UTF-8; nil when they are not UTF-8.
    fileprivate var removingPercentEncoding: String? {
        var bytes: [UInt8] = []
        var i = utf8.startIndex
        while i < utf8.endIndex {
            let c = utf8[i]
            if c == UInt8(ascii: "%"), let h = utf8.index(i, offsetBy: 2, limitedBy: utf8.index(before: utf8.endIndex)),
                let value = UInt8(String(decoding: utf8[utf8.index(after: i)...h], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                i = utf8.index(after: h)
            } else {
                bytes.append(c)
                i = utf8.index(after: i)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
