import ArgumentParser
import DeskKitMetadata
import DeskKitModel

#if canImport(Glibc)
    import Glibc
#endif

struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Read the preview metadata of an HTML page with libxml2.",
        discussion: """
            deskkit extract FILE [--url PAGE_URL] [--content-type VALUE]
              Prints {"title", "description", "image", "url", "site_name", …everything else collected}. \
            --url resolves relative URLs; --content-type passes the HTTP header (its charset counts).

            deskkit extract --jsonl [FILE]
              Reads lines {"file", "url", "content_type"} (standard input when FILE is absent or "-") and \
            answers one line each with the same object; a line or file that cannot be read is answered \
            {"error": {"code", "message", "line"}}, the run goes on, and the exit status is 1.
            """
    )

    @Flag(name: .long, help: "Read JSON lines {\"file\", \"url\", \"content_type\"} from standard input.")
    var jsonl = false

    @Option(name: .long, help: "The page's URL, to resolve relative URLs against.")
    var url: String?

    @Option(name: .long, help: "The HTTP Content-Type the page came with.")
    var contentType: String?

    @OptionGroup var lineOptions: LineOptions

    @Argument(help: "The HTML file; with --jsonl, the JSON lines to read (default: standard input).")
    var file: String?

    func validate() throws {
        if !jsonl && file == nil { throw ValidationError("give the HTML FILE to read, or --jsonl") }
    }

    func run() throws {
        var out = Output.stdout()
        defer { out.flush() }
        guard jsonl else {
            out.line(try Self.extract(file!, pageURL: url, contentType: contentType).jsonValue)
            return
        }
        var reader = try LineReader(path: file, options: lineOptions)
        var failed = false
        try reader.forEachNonBlankLine({ line, number in
            let answer: JSONValue
            switch JSONValue.parseResult(line) {
            case .success(let json):
                if let path = json["file"]?.stringValue {
                    do {
                        answer = try Self.extract(path, pageURL: json["url"]?.stringValue, contentType: json["content_type"]?.stringValue)
                            .jsonValue
                    } catch {
                        failed = true
                        answer = LineError(code: "cannot_read", message: "\(error)", line: number).jsonValue
                    }
                } else {
                    failed = true
                    answer = LineError.missing("file", line: number).jsonValue
                }
            case .failure(let error):
                failed = true
                answer = LineError.notJSON(line: number, error).jsonValue
            }
            out.line(answer)
        }) {
            failed = true
            out.line($0.jsonValue)
        }
        if failed { throw ExitCode(1) }  // the deferred flush writes what is buffered
    }

    /// The metadata of the page in file `path`, read as the parser asks for it: the rest of a page whose
    /// metadata is complete is never read.
    private static func extract(_ path: String, pageURL: String?, contentType: String?) throws -> PageMetadata {
        let parser = HTMLMetadataParser(pageURL: pageURL, contentType: contentType)
        var reader = try LineReader(path: path)
        try reader.forEachChunk { parser.feed(UnsafeRawBufferPointer($0)) }
        return parser.finish()
    }
}

extension PageMetadata {
    var jsonValue: JSONValue {
        func props(_ list: [Property]) -> JSONValue { .array(list.map { ["key": .string($0.key), "value": .string($0.value)] }) }
        return [
            "title": .optional(title), "description": .optional(description), "image": .optional(image),
            "url": .optional(url), "site_name": .optional(siteName), "type": .optional(type), "locale": .optional(locale),
            "images": .array(
                images.map { i in
                    [
                        "url": .optional(i.url), "secure_url": .optional(i.secureURL),
                        "width": .optional(i.width.map(Int64.init)), "height": .optional(i.height.map(Int64.init)),
                        "alt": .optional(i.alt), "type": .optional(i.type),
                    ]
                }),
            "videos": .array(videos.map(JSONValue.string)), "canonical_url": .optional(canonicalURL),
            "base_url": .optional(baseURL), "application_name": .optional(applicationName),
            "theme_color": .optional(themeColor),
            "icons": .array(
                icons.map { ["rel": .string($0.rel), "href": .string($0.href), "sizes": .optional($0.sizes), "type": .optional($0.type)] }),
            "open_graph": props(openGraph), "twitter": props(twitter), "itemprops": props(itemprops), "json_ld": props(jsonLD),
            "charset": .string(charset.name), "charset_source": .string(charset.source.rawValue),
            "charset_declared": .optional(charset.declared), "bytes_parsed": .integer(Int64(bytesParsed)),
            "stopped_early": .bool(stoppedEarly),
        ]
    }
}
