import DeskKitInvariants
import DeskKitTestSupport
import Foundation
import Testing

/// Every file of a fuzz target's seed folders (`Fuzz/seeds.txt`: its own `Corpus/<target>/` with the
/// minimised findings, and other corpora) goes through the same checks the libFuzzer targets run.
@Suite("Corpus replay")
struct CorpusReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardizedFileURL

    /// Fuzz/seeds.txt: target name → seed folders.
    static let seedFolders: [String: [String]] = {
        let text = (try? String(contentsOf: root.appendingPathComponent("Fuzz/seeds.txt"), encoding: .utf8)) ?? ""
        var folders: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ").map(String.init)
            if let name = words.first { folders[name] = Array(words.dropFirst()) }
        }
        return folders
    }()

    static func files(_ target: FuzzTarget) -> [URL] {
        let folders = seedFolders[target.rawValue] ?? []
        return folders.flatMap { folder -> [URL] in
            let url = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.sorted().filter { !$0.hasPrefix(".") && $0 != "EXPECTED.jsonl" && $0 != "SOURCES.md" }
                .map { url.appendingPathComponent($0) }
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func replay(_ target: FuzzTarget) async throws {
        let files = Self.files(target)
        #expect(
            Self.seedFolders[target.rawValue]?.first == "Corpus/\(target.rawValue)",
            "Fuzz/seeds.txt lists Corpus/\(target.rawValue) first")
        #expect(files.count >= 10, "\(target.rawValue) has seeds")
        // Seconds of CPU, on a thread of its own: the cooperative pool's two threads stay with the suites that wait
        // on time (beside stress-ng, this replay and other long synchronous tests held both for about a minute).
        let failures = try await onThreadOfItsOwn {
            try files.compactMap { file -> String? in
                do {
                    try target.check([UInt8](try Data(contentsOf: file)))
                    return nil
                } catch {
                    return "\(file.lastPathComponent): \(error)"
                }
            }
        }
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
    }
}
