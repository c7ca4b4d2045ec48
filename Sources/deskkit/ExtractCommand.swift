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

            deskkit extract --jsonl
              Reads lines {"file", "url", "content_type"} from standard input and answers one line each with \
            the same object; a line or file that cannot be read is answered {"error": …} and the run goes on.
            """
    )

    @Flag(name: .long, help: "Read JSON lines {\"file\", \"url\", \"content_type\"} from standard input.")
    var jsonl = false

    @Option(name: .long, help: "The page's URL, to resolve relative URLs against.")
    var url: String?

    @Option(name: .long, help: "The HTTP Content-Type the page came with.")
    var contentType: String?

    @OptionGroup var lineOptions: LineOptions

    @Argument(help: "The HTML file.")
    var file: String?

    func validate() throws {
        if jsonl && file != nil { throw ValidationError("give a FILE or --jsonl, not both") }
        if !jsonl && file == nil { throw ValidationError("give the HTML FILE to read, or --jsonl") }
    }

    func run() throws {
        var out = Output.stdout()
        defer { out.flush() }
        guard jsonl else {
            let bytes = try readFile(file!)
            out.line(MetadataExtractor.extract(html: bytes, pageURL: url, contentType: contentType).jsonValue)
            return
        }
        var reader = try LineReader(path: nil, options: lineOptions)
        var failed = false
        try reader.forEachLine({ line, number in
            let answer: JSONValue
            switch JSONValue.parseResult(line) {
            case .success(let json):
                if let path = json["file"]?.stringValue {
                    do {
                        let bytes = try readFile(path)
                        answer = MetadataExtractor.extract(
                            html: bytes, pageURL: json["url"]?.stringValue, contentType: json["content_type"]?.stringValue
                        ).jsonValue
                    } catch {
                        answer = ["error": .string("line \(number): \(error)")]
                    }
                } else {
                    answer = ["error": .string("line \(number): expected an object with a string \"file\"")]
                }
            case .failure(let error):
                answer = ["error": .string("line \(number): not JSON: \(error)")]
            }
            out.line(answer)
        }) {
            failed = true
            out.line($0.jsonValue)
        }
        if failed {
            out.flush()
            throw ExitCode(1)
        }
    }

    private func readFile(_ path: String) throws -> [UInt8] {
        var reader = try LineReader(path: path)
        return try reader.readAll()
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
