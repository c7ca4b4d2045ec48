import DeskKitModel

/// Benchmarks for DeskKit. Each prints what it measured; none asserts a figure.
///   deskkit-bench messages [COUNT]   decode + classify + visibility of a realistic message mix
let args = CommandLine.arguments.dropFirst()
let which = args.first ?? "all"
if which == "parse" { ParseOnlyBenchmark.run(count: 200_000) }
if which == "links" || which == "all" { LinksBenchmark.run(only: args.dropFirst().first) }
if which == "extract" || which == "all" { ExtractBenchmark.run(directory: args.dropFirst().first ?? "Corpus/html/real") }
if which == "messages" || which == "all" {
    MessagesBenchmark.run(count: args.dropFirst().first.flatMap(Int.init) ?? 200_000, passes: args.dropFirst(2).first.flatMap(Int.init) ?? 5)
}
