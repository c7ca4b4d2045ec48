import DeskKitMetadata
import Foundation

/// Metadata extraction over the real pages of Corpus/html/real, on one core.
enum ExtractBenchmark {
    static func run(directory: String, each: Bool = false) {
        let dir = URL(fileURLWithPath: directory)
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter {
            $0.hasSuffix(".html")
        }.sorted()
        let pages = files.compactMap { try? [UInt8](Data(contentsOf: dir.appendingPathComponent($0))) }
        guard !pages.isEmpty else {
            print("extract: no pages in \(directory) (run from the repository root)")
            return
        }
        measure(pages, label: directory)
        if each { measureEach(pages, names: files) }
    }

    /// One line a page, slowest first: where the time of the real pages goes.
    static func measureEach(_ pages: [[UInt8]], names: [String]) {
        var rows: [(Double, String, Int, Int)] = []
        for (page, name) in zip(pages, names) {
            var parsed = 0
            let us =
                bestSeconds(of: 20) {
                    parsed = MetadataExtractor.extract(html: page, pageURL: "https://example.com/page").bytesParsed
                } * 1e6
            rows.append((us, name, page.count, parsed))
        }
        let total = rows.reduce(0) { $0 + $1.0 }
        for (us, name, size, parsed) in rows.sorted(by: { $0.0 > $1.0 }) {
            print("  \(Int(us)) µs (\(Int(us * 100 / total))%)  \(name)  \(size / 1024) KiB, read \(parsed / 1024) KiB")
        }
    }

    /// Synthetic pages shaped like article pages: a ~5 KiB head with OpenGraph tags and inline scripts,
    /// ~190 KiB of body. Not real pages: they show what a head that completes the preview costs.
    static func runSynthetic() {
        let pages = (0..<50).map { n -> [UInt8] in
            let head =
                "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Page \(n)</title>"
                + "<meta property=\"og:title\" content=\"Article \(n)\"><meta property=\"og:description\" content=\"D \(n)\">"
                + "<meta property=\"og:image\" content=\"/img/\(n).png\">"
                + String(repeating: "<script>var x=1;</script>", count: 200)
                + "</head><body>"
            let body = String(
                repeating: "<div class=\"row\"><p>Paragraph text for page with some words in it.</p></div>\n",
                count: 2_500)
            return Array((head + body + "</body></html>").utf8)
        }
        measure(pages, label: "synthetic article pages with OpenGraph heads")
    }

    /// One huge token each: libxml2 looks through an unfinished token again at every slice it is given.
    static func runHostile() {
        let size = 4_000_000
        let pages: [(String, String)] = [
            (
                "a 4 MB attribute value",
                "<html><head><meta name=\"description\" content=\"" + String(repeating: "a", count: size) + "\">"
            ),
            ("a 4 MB comment", "<html><head><!-- " + String(repeating: "a", count: size) + " -->"),
            ("a 4 MB title", "<html><head><title>" + String(repeating: "a b ", count: size / 4) + "</title>"),
            ("a 4 MB inline script", "<html><head><script>" + String(repeating: "x<y;", count: size / 4) + "</script>"),
        ]
        for (label, head) in pages {
            let page = Array((head + "<title>T</title></head><body><p>P</p></body></html>").utf8)
            let clock = ContinuousClock()
            let start = clock.now
            let m = MetadataExtractor.extract(html: page, pageURL: "https://example.com/page")
            let elapsed = clock.now - start
            print(
                "extract (hostile: \(label)): \(elapsed.components.attoseconds / 1_000_000_000_000_000 + elapsed.components.seconds * 1000) ms, title \(m.title?.count ?? 0) characters"
            )
        }
    }

    static func measure(_ pages: [[UInt8]], label: String) {
        let bytes = pages.reduce(0) { $0 + $1.count }
        var parsed = 0
        var titles = 0
        let s = bestSeconds(of: 10) {
            parsed = 0
            titles = 0
            for page in pages {
                let m = MetadataExtractor.extract(html: page, pageURL: "https://example.com/page")
                parsed += m.bytesParsed
                titles += m.title == nil ? 0 : 1
            }
        }
        print(
            "extract (\(label)): \(pages.count) pages, \(bytes / pages.count / 1024) KiB average: \(Int(Double(pages.count) / s)) pages/s, "
                + "\(Int(Double(bytes) / s / 1e6)) MB/s of page on one core; read \(parsed * 100 / bytes)% of the bytes; "
                + "\(titles) titles")
        measureRefusalCheck(pages, label: label, extraction: s)
    }

    /// What the refusal check adds to a fetched page, on what the parser gathered: its time per page and as a
    /// share of extraction's.
    static func measureRefusalCheck(_ pages: [[UInt8]], label: String, extraction: Double) {
        let url = "https://example.com/page"
        let metadata = pages.map { MetadataExtractor.extract(html: $0, pageURL: url) }
        let response = ResponseFacts(
            status: 200,
            headers: [.init(name: "Content-Type", value: "text/html"), .init(name: "Server", value: "nginx")],
            requestedURL: url, finalURL: url)
        var refused = 0
        let s = bestSeconds(of: 10) {
            refused = 0
            for m in metadata where RefusalCheck.refusal(of: m, response: response) != nil { refused += 1 }
        }
        print(
            "refusal check (\(label)): \(Int(s / Double(pages.count) * 1e6)) µs a page, "
                + "\(String(format: "%.1f", s / extraction * 100))% of extraction; \(refused) of \(pages.count) refused"
        )
    }
}
