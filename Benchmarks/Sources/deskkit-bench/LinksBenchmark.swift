import DeskKitInvariants
import DeskKitJSON
import DeskKitLinks
import DeskKitModel
import Foundation

/// Link detection over chat messages (about one link in four messages), link-free text, and hostile text.
enum LinksBenchmark {
    static let sentences = [
        "Hi, my order #1138 has not arrived yet, can you check?",
        "Sure! Let me look that up for you, one moment please.",
        "It says delivered but there is nothing at my door :(",
        "Sorry about that. I have opened a claim with the courier, reference 55-1138.",
        "Спасибо, жду ответа. Заказ был оплачен картой.",
        "ご連絡ありがとうございます。確認してから返信します。",
        "Could you send me a photo of the receipt? Version 2.3.1 of the app shows it under Orders.",
        "Thanks, that helps a lot. Have a great day!",
    ]
    static let withLinks = [
        "Tracking is here: https://track.example.com/parcel/1138?lang=en",
        "Our policy: example.com/help/lost-parcels (see section 3).",
        "Write to support@example.com if it does not show up by Friday.",
        "見てください https://example.jp/お知らせ/2024 よろしく",
    ]

    static func run(only: String? = nil) {
        var rng = SplitMix64(seed: 42)
        var messages: [String] = []
        for i in 0..<200_000 {
            if i % 4 == 0 {
                messages.append(withLinks[Int(rng.next() % UInt64(withLinks.count))])
            } else {
                messages.append(sentences[Int(rng.next() % UInt64(sentences.count))])
            }
        }
        let detector = LinkDetector()
        measure("chat messages, 1 in 4 with a link", messages, detector)
        if only == "chat" { return }
        let plain = (0..<200_000).map { _ in sentences[Int(rng.next() % UInt64(sentences.count))] }
        measure("chat messages, no links", plain, detector)
        let prose = String(repeating: "the quick brown fox jumps over the lazy dog again and again ", count: 170_000)
        measure("10 MB of link-free prose, one call", [prose], detector)
        measure("10 MB without spaces", [String(repeating: "abcdefghij", count: 1_000_000)], detector)
        measure("10 MB of dots", [String(repeating: ".", count: 10_000_000)], detector)
        measure("10 MB of a.a.a.", [String(repeating: "a.", count: 5_000_000)], detector)
    }

    /// Detection over the `text` of every JSON line of the file at `path` (`{"text": "…"}`, as
    /// `../shared/tools/peers/make_chat_corpus.py` writes them and the Rust peer's `speed` reads them): MB/s of
    /// text, in-process, one thread, warm, the best of five passes — with `--require-scheme`, in that mode.
    static func run(file path: String, requireScheme: Bool, passes: Int) {
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
        let texts = data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            (try? JSONValue.parse(Array(line)))?["text"]?.stringValue
        }
        var options = LinkDetector.Options()
        options.requireScheme = requireScheme
        measure("\(path) (\(texts.count) texts)", texts, LinkDetector(options: options), passes: passes)
    }

    static func measure(_ name: String, _ texts: [String], _ detector: LinkDetector, passes: Int = 5) {
        let bytes = texts.reduce(0) { $0 + $1.utf8.count }
        var count = 0
        for t in texts { count += detector.links(in: t).count }  // warm
        let s = bestSeconds(of: passes) {
            count = 0
            for t in texts { count += detector.links(in: t).count }
        }
        print(
            "links: \(name): \(Int(Double(bytes) / s / 1e6)) MB/s, \(Int(Double(texts.count) / s)) texts/s, \(count) links"
        )
    }
}
