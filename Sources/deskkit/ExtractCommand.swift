import ArgumentParser
import DeskKitMetadata
import DeskKitModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
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
    @OptionGroup var threadOptions: ThreadOptions

    @Argument(help: "The HTML file; with --jsonl, the JSON lines to read (default: standard input).")
    var file: String?

    func validate() throws {
        if !jsonl && file == nil { throw ValidationError("give the HTML FILE to read, or --jsonl") }
    }

    func run() throws {
        var out = Output.stdout()
        defer { out.flush() }
        guard jsonl else {
            let metadata = try Self.extract(file!, pageURL: url, contentType: contentType)
            out.line { metadata.write(to: &$0) }
            return
        }
        // Each page costs a parse of its own: one page a run, so that the threads share a batch's pages
        // however their sizes differ, and batches of many pages, so that few of them end in a wait.
        let failures = try LineBatches.answer(
            file, lineOptions, threadOptions, maxLines: 512, runsPerThread: 512, makeState: {},
            work: { _, line, number, answer in
                switch JSONValue.parseResult(line) {
                case .success(let json):
                    guard let path = json["file"]?.stringValue else {
                        answer.fail(.missing("file", line: number))
                        return
                    }
                    do {
                        let metadata = try Self.extract(
                            path, pageURL: json["url"]?.stringValue, contentType: json["content_type"]?.stringValue)
                        answer.line { metadata.write(to: &$0) }
                    } catch {
                        answer.fail(LineError(code: "cannot_read", message: "\(error)", line: number))
                    }
                case .failure(let error):
                    answer.fail(.notJSON(line: number, error))
                }
            },
            overlong: { $1.fail($0) })
        if failures > 0 { throw ExitStatus.someInputsFailed.exitCode }
    }

    /// The metadata of the page in file `path`, read as the parser asks for it: the rest of a page whose
    /// metadata is complete is never read.
    private static func extract(_ path: String, pageURL: String?, contentType: String?) throws -> PageMetadata {
        let parser = HTMLMetadataParser(pageURL: pageURL, contentType: contentType)
        var reader = try LineReader(path: path)
        try reader.forEachChunk { parser.feed($0) }
        return parser.finish()
    }
}

extension PageMetadata {
    /// The answer's JSON object, written member by member straight from the fields (no `JSONValue` tree).
    func write(to w: inout JSONWriter) {
        func properties(_ key: StaticString, _ list: [Property]) {
            w.member(key)
            w.array(list) { w, p in
                w.member("key", p.key, first: true)
                w.member("value", p.value)
                w.raw("}")
            }
        }
        w.member("title", title, first: true)
        w.member("description", description)
        w.member("image", image)
        w.member("url", url)
        w.member("site_name", siteName)
        w.member("type", type)
        w.member("locale", locale)
        w.member("images")
        w.array(images) { w, i in
            w.member("url", i.url, first: true)
            w.member("secure_url", i.secureURL)
            w.member("width", i.width.map(Int64.init))
            w.member("height", i.height.map(Int64.init))
            w.member("alt", i.alt)
            w.member("type", i.type)
            w.raw("}")
        }
        w.member("videos")
        w.array(videos) { w, v in w.write(v) }
        w.member("canonical_url", canonicalURL)
        w.member("base_url", baseURL)
        w.member("application_name", applicationName)
        w.member("theme_color", themeColor)
        w.member("icons")
        w.array(icons) { w, i in
            w.member("rel", i.rel, first: true)
            w.member("href", i.href)
            w.member("sizes", i.sizes)
            w.member("type", i.type)
            w.raw("}")
        }
        properties("open_graph", openGraph)
        properties("twitter", twitter)
        properties("itemprops", itemprops)
        properties("json_ld", jsonLD)
        w.member("charset", charset.name)
        w.member("charset_source", charset.source.rawValue)
        w.member("charset_declared", charset.declared)
        w.member("bytes_parsed", Int64(bytesParsed))
        w.member("stopped_early")
        w.raw(stoppedEarly ? "true" : "false")
        w.raw("}")
    }
}
