#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import DeskKitModel

/// Benchmarks for DeskKit. Each prints what it measured; none asserts a figure. Run from the repository root:
///   deskkit-bench links [chat]            link detection over chat messages and hostile texts
///   deskkit-bench links --file F [--require-scheme] [--passes N]
///                                         link detection over the texts of F's JSON lines, in MB/s of text
///   deskkit-bench extract [DIR] [--each]  metadata extraction over Corpus/html/real, and synthetic OG pages;
///                                         --each: time of every page, slowest first
///   deskkit-bench previews                previews of distinct pages from a loopback server, cached, memory
///   deskkit-bench messages [COUNT] [N]    decode + classify + visibility of a realistic message mix
///   deskkit-bench parse                   the JSON parser alone
///   deskkit-bench messages-file FILE [N]  writes the message mix as JSON lines (for Scripts/messages-python.py)
let args = CommandLine.arguments.dropFirst()
let which = args.first ?? "all"
if which == "parse" { ParseOnlyBenchmark.run(count: 200_000) }
if which == "messages-file", let path = args.dropFirst().first {
    let lines = MessagesBenchmark.makeLines(count: args.dropFirst(2).first.flatMap(Int.init) ?? 200_000)
    let text = lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n") + "\n"
    guard let file = fopen(path, "w") else { fatalError("cannot write \(path)") }
    fputs(text, file)
    fclose(file)
}
if which == "links", let at = args.firstIndex(of: "--file"), args.index(after: at) < args.endIndex {
    let passes = args.firstIndex(of: "--passes").flatMap {
        args.index(after: $0) < args.endIndex ? Int(args[args.index(after: $0)]) : nil
    }
    LinksBenchmark.run(
        file: args[args.index(after: at)], requireScheme: args.contains("--require-scheme"), passes: passes ?? 5)
} else if which == "links" || which == "all" {
    LinksBenchmark.run(only: args.dropFirst().first)
}
if which == "extract" || which == "all" {
    let each = args.contains("--each")
    ExtractBenchmark.run(directory: args.dropFirst().first { $0 != "--each" } ?? "Corpus/html/real", each: each)
    ExtractBenchmark.runSynthetic()
    ExtractBenchmark.runHostile()
}
if which == "previews" || which == "all" { await PreviewsBenchmark.run() }
if which == "messages" || which == "all" {
    MessagesBenchmark.run(
        count: args.dropFirst().first.flatMap(Int.init) ?? 200_000,
        passes: args.dropFirst(2).first.flatMap(Int.init) ?? 5)
}
