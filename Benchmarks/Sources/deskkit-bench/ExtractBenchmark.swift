import DeskKitMetadata
import Foundation

/// Metadata extraction over the real pages of Corpus/html/real, on one core.
enum ExtractBenchmark {
    static func run(directory: String) {
        let dir = URL(fileURLWithPath: directory)
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".html") }.sorted()
        let pages = files.compactMap { try? [UInt8](Data(contentsOf: dir.appendingPathComponent($0))) }
        guard !pages.isEmpty else {
            print("extract: no pages in \(directory) (run from the repository root)")
            return
        }
        measure(pages, label: directory)
    }

    /// Synthetic pages shaped like article pages: a ~5 KiB head with OpenGraph tags and inline scripts,
    /// ~190 KiB of body. Not real pages: they show what a head that completes the preview costs.
    static func runSynthetic() {
        let pages = (0..<50).map { n -> [UInt8] in
            let head = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Page \(n)</title>"
                + "<meta property=\"og:title\" content=\"Article \(n)\"><meta property=\"og:description\" content=\"D \(n)\">"
                + "<meta property=\"og:image\" content=\"/img/\(n).png\">" + String(repeating: "<script>var x=1;</script>", count: 200)
                + "</head><body>"
            let body = String(repeating: "<div class=\"row\"><p>Paragraph text for page with some words in it.</p></div>\n", count: 2_500)
            return Array((head + body + "</body></html>").utf8)
        }
        measure(pages, label: "synthetic article pages with OpenGraph heads")
    }

    static func measure(_ pages: [[UInt8]], label: String) {
        let bytes = pages.reduce(0) { $0 + $1.count }
        var best = Duration.seconds(1000)
        var parsed = 0
        var titles = 0
        for _ in 0..<10 {
            let clock = ContinuousClock()
            let start = clock.now
            parsed = 0
            titles = 0
            for page in pages {
                let m = MetadataExtractor.extract(html: page, pageURL: "https://example.com/page")
                parsed += m.bytesParsed
                titles += m.title == nil ? 0 : 1
            }
            best = min(best, clock.now - start)
        }
        let s = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
        print(
            "extract (\(label)): \(pages.count) pages, \(bytes / pages.count / 1024) KiB average: \(Int(Double(pages.count) / s)) pages/s, "
                + "\(Int(Double(bytes) / s / 1e6)) MB/s of page on one core; libxml2 read \(parsed * 100 / bytes)% of the bytes; "
                + "\(titles) titles")
    }
}
