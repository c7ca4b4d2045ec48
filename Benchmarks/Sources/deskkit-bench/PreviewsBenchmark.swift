import DeskKitPageServer
import DeskKitPreview
import Foundation

/// Previews of distinct ~100 KB pages from a loopback server, cached previews, and memory while 1,000
/// previews run at once.
enum PreviewsBenchmark {
    static func page(_ n: Int) -> [UInt8] {
        let head = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>Page \(n)</title>
            <meta property="og:title" content="Article number \(n)"><meta property="og:description" content="Description of \(n)">
            <meta property="og:image" content="/img/\(n).png"><meta property="og:site_name" content="Bench"></head><body>
            """
        let body = String(
            repeating: "<div class=\"row\"><p>Paragraph text for page \(n) with some words in it.</p></div>\n",
            count: 1_250)
        return Array((head + body + "</body></html>").utf8)
    }

    static func rss() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    static func run() async {
        let pages = (0..<64).map(page)
        guard
            let server = try? await PageServer.start(routes: { path in
                let n = Int(path.split(separator: "/").last ?? "0") ?? 0
                return PageServer.Response(
                    headers: [("Content-Type", "text/html; charset=utf-8")], body: .bytes(pages[n % pages.count]))
            })
        else {
            print("previews: could not start the page server")
            return
        }
        var fetch = FetchConfiguration()
        fetch.allowedAddresses = [.v4(0x7F00_0001)]
        fetch.allowedPorts = [server.port]
        var configuration = PreviewService.Configuration()
        configuration.maxConcurrentFetchesPerHost = 64
        configuration.cacheCapacity = 100_000
        let service = PreviewService(fetcher: PageFetcher(configuration: fetch), configuration: configuration)
        let count = 4_000
        let clock = ContinuousClock()
        let rssBefore = rss()
        var start = clock.now
        var failures = 0
        await withTaskGroup(of: Bool.self) { group in
            for i in 0..<count {
                group.addTask { (try? await service.card(for: "\(server.baseURL)/p/\(i)").get()) != nil }
                if i >= 256, let ok = await group.next(), !ok { failures += 1 }
            }
            for await ok in group where !ok { failures += 1 }
        }
        var s = seconds(clock.now - start)
        print(
            "previews: \(count) distinct pages of \(pages[0].count / 1024) KiB from loopback: \(Int(Double(count) / s)) previews/s (\(failures) failed)"
        )
        start = clock.now
        let cachedCount = 200_000
        for i in 0..<cachedCount { _ = await service.card(for: "\(server.baseURL)/p/\(i % count)") }
        s = seconds(clock.now - start)
        print("previews: cached: \(Int(Double(cachedCount) / s)) previews/s on one task")
        let rssMid = rss()
        for round in 0..<3 {
            await withTaskGroup(of: Void.self) { group in
                for i in 0..<1_000 {
                    group.addTask { _ = await service.card(for: "\(server.baseURL)/q/\(round)/\(i)") }
                }
            }
            print("previews: 1,000 at once, round \(round + 1): RSS \(rss() / 1024) MiB")
        }
        print(
            "previews: RSS before \(rssBefore / 1024) MiB, after the distinct run \(rssMid / 1024) MiB (cache holds \(await service.cachedCount))"
        )
        try? await server.stop()
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
