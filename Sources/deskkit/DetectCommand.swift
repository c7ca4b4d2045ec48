import ArgumentParser
import DeskKitLinks
import DeskKitModel

struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find the links in chat text.",
        discussion: """
            deskkit detect TEXT…
              Prints each link of the text as `url<TAB>text<TAB>kind<TAB>start-end` (scalar offsets), one a line.

            deskkit detect --jsonl
              Reads JSON lines {"text": …} from standard input and writes one line each: \
            {"links": [{"text", "url", "kind", "start", "end", "utf16_start", "utf16_end"}]}, where start and \
            end are half-open Unicode scalar offsets and url is the normalised href. A line that cannot be read \
            is answered {"links": [], "error": …} and the run goes on.
            """
    )

    @Flag(name: .long, help: "Read JSON lines {\"text\": …} from standard input.")
    var jsonl = false

    @Flag(name: .long, help: "Do not link domains written without a scheme (www. hosts still are).")
    var noBareDomains = false

    @Flag(name: .long, help: "Do not link e-mail addresses.")
    var noEmails = false

    @Flag(name: .long, help: "Link bare IPv4 addresses without a scheme.")
    var ipHosts = false

    @Flag(
        name: .long,
        help: "Accept any RFC 3986 scheme (file:///x, git:host/path, svn+ssh://…), not only http, https and ftp.")
    var anyScheme = false

    @Flag(name: .long, help: "Require a known top-level domain after a scheme too.")
    var strictHosts = false

    @Flag(name: .long, help: "Do not link protocol-relative //host/path links.")
    var noProtocolRelative = false

    @Flag(name: .long, help: "Keep | in paths, as Twitter does (by default it ends a path: Slack, Jira, tables).")
    var pipesInPaths = false

    @Flag(name: .long, help: "Link localhost:PORT written without a scheme.")
    var localhost = false

    @Flag(name: .long, help: "Link e-mail addresses whose domain has no known top-level domain (two labels at least).")
    var anyEmailDomain = false

    @Flag(
        name: .long,
        help:
            "Link only what is written with a scheme (http:, https:, ftp:, mailto:, and --any-scheme's): no www., bare domains, //host links or bare e-mail addresses."
    )
    var requireScheme = false

    @OptionGroup var lineOptions: LineOptions
    @OptionGroup var threadOptions: ThreadOptions

    @Argument(
        help: "The text to search (joined with spaces); with --jsonl, the file to read (default: standard input).")
    var text: [String] = []

    func validate() throws {
        if jsonl && text.count > 1 { throw ValidationError("--jsonl reads one FILE (or standard input), not TEXT") }
        if !jsonl && text.isEmpty { throw ValidationError("give the TEXT to search, or --jsonl to read JSON lines") }
    }

    var detector: LinkDetector {
        LinkDetector(
            options: .init(
                bareDomains: !noBareDomains, emails: !noEmails, ipHosts: ipHosts, anyScheme: anyScheme,
                strictHosts: strictHosts, protocolRelative: !noProtocolRelative, pipesInPaths: pipesInPaths,
                localhost: localhost, anyEmailDomain: anyEmailDomain, requireScheme: requireScheme))
    }

    func run() throws {
        var out = Output.stdout()
        defer { out.flush() }
        let detector = self.detector
        guard jsonl else {
            for link in detector.links(in: text.joined(separator: " ")) {
                out.line(
                    "\(link.href)\t\(link.text)\t\(link.kind.rawValue)\t\(link.range.lowerBound)-\(link.range.upperBound)"
                )
            }
            return
        }
        // A JSON reader per run of lines: it keeps its parse memory from one line to the next.
        let failures = try LineBatches.answer(
            text.first, lineOptions, threadOptions, maxLines: 8192, makeState: { JSONLineReader() },
            work: { lines, line, number, answer in
                // The links of the text's bytes as the parser left them: no String is made for the text.
                var found: [Link]?
                if let error = lines.withString("text", in: line, { found = $0.map { detector.links(utf8: $0) } }) {
                    answer.fail(.notJSON(line: number, error))
                } else if let links = found {
                    answer.line { json in
                        json.raw(#"{"links":["#)
                        for (i, link) in links.enumerated() {
                            if i > 0 { json.raw(",") }
                            link.write(to: &json)
                        }
                        json.raw("]}")
                    }
                } else {
                    answer.fail(.missing("text", line: number))
                }
            },
            overlong: { $1.fail($0) })
        if failures > 0 { throw ExitStatus.someInputsFailed.exitCode }
    }
}

extension Link {
    /// Writes the link as its JSON answer `{"text", "url", "ascii_url", "kind", "start", "end", "utf16_start",
    /// "utf16_end"}` straight to `json`.
    func write(to json: inout JSONWriter) {
        json.member("text", text, first: true)
        json.member("url", href)
        json.member("ascii_url", asciiHref)
        json.member("kind", kind.rawValue)
        json.member("start", Int64(range.lowerBound))
        json.member("end", Int64(range.upperBound))
        json.member("utf16_start", Int64(utf16Range.lowerBound))
        json.member("utf16_end", Int64(utf16Range.upperBound))
        json.raw("}")
    }
}
