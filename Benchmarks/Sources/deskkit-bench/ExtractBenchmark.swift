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
            "extract: \(pages.count) pages, \(bytes / pages.count / 1024) KiB average: \(Int(Double(pages.count) / s)) pages/s, "
                + "\(Int(Double(bytes) / s / 1e6)) MB/s of page on one core; libxml2 read \(parsed * 100 / bytes)% of the bytes; "
                + "\(titles) titles")
    }
}
