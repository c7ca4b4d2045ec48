import Foundation
import Testing

/// The README and the DocC articles show code that compiles and runs: every Swift example in them is a snippet
/// of `Snippets/` (built by `swift build` and `swift test`) shown as it is, and every link stays in the tree.
@Suite("Documentation")
struct DocumentationTests {
    static let root = CLI.repositoryRoot

    /// The README and every DocC article.
    static var documents: [URL] {
        var found = [root.appendingPathComponent("README.md")]
        let sources = root.appendingPathComponent("Sources")
        if let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.pathExtension == "md" && url.path.contains(".docc/") {
                found.append(url)
            }
        }
        return found
    }

    static var snippets: [String: String] {
        let folder = root.appendingPathComponent("Snippets")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var shown: [String: String] = [:]
        for name in names where name.hasSuffix(".swift") {
            let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
            shown[String(name.dropLast(6))] = visiblePart(of: text)
        }
        return shown
    }

    /// What DocC shows of a snippet: without its first comment lines (the snippet's abstract) and without the
    /// lines between `// snippet.hide` and `// snippet.show`.
    static func visiblePart(of source: String) -> String {
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let first = lines.first, first.hasPrefix("//") || first.isEmpty { lines.removeFirst() }
        var visible: [String] = []
        var hidden = false
        for line in lines {
            let marker = line.trimmingCharacters(in: .whitespaces)
            if marker == "// snippet.hide" {
                hidden = true
            } else if marker == "// snippet.show" {
                hidden = false
            } else if !hidden {
                visible.append(line)
            }
        }
        return visible.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func swiftBlocks(in text: String) -> [String] {
        text.components(separatedBy: "```swift\n").dropFirst().compactMap {
            $0.components(separatedBy: "\n```").first?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    @Test func everySwiftExampleIsACompiledSnippet() throws {
        let snippets = Self.snippets
        #expect(snippets.count >= 6)
        var shown = Set<String>()
        for document in Self.documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            for block in Self.swiftBlocks(in: text) {
                let match = snippets.first { $0.value == block }?.key
                #expect(match != nil, "\(document.lastPathComponent): an example that is no snippet:\n\(block)")
                if let match { shown.insert(match) }
            }
        }
        #expect(shown == Set(snippets.keys), "every snippet is shown somewhere")
    }

    @Test func linksStayInTheTree() throws {
        for document in Self.documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            #expect(!text.contains("../shared"), "\(document.lastPathComponent) points outside the repository")
            // Markdown links to files: [text](path) with a relative path.
            for part in text.components(separatedBy: "](").dropFirst() {
                guard let target = part.split(separator: ")").first.map(String.init),
                    !target.hasPrefix("http"), !target.hasPrefix("#"), !target.hasPrefix("doc:"), !target.contains(" ")
                else { continue }
                let path = String(target.split(separator: "#").first ?? "")
                let file = document.deletingLastPathComponent().appendingPathComponent(path)
                #expect(FileManager.default.fileExists(atPath: file.path), "\(document.lastPathComponent): \(target)")
            }
        }
    }

    /// The snippets that need no network and no server run, and say what the README says they say.
    @Test func theOfflineSnippetsRun() async throws {
        let folder = CLI.executable.deletingLastPathComponent()
        let expected = [
            "RenderMessage": "close the ticket? 4021 true",
            "LayOutCard": "title الطرود المفقودة rightToLeft",
            "DecodeStream": "Hi! plain",
            "SDKMessage": "hidden from the customer: hidden(system_custom_type)",
            "FindLinks": "https://example.com/track/1138",
            "ReadPageMetadata": "Parcel 1138",
            "CheckRefusal": "challenge cloudflare a bot check stood in for the page (element #challenge-stage)",
            "ParseJSON": #"{"type":"NOTIFICATION_WELCOME","ids":[1,2.50]}"#,
        ]
        for (name, output) in expected {
            let process = Process()
            process.executableURL = folder.appendingPathComponent(name)
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let text = String(decoding: await CLI.readToEnd(pipe), as: UTF8.self)
            await CLI.exit(of: process)
            #expect(process.terminationStatus == 0, "\(name)")
            #expect(text.contains(output), "\(name): \(text)")
        }
    }
}
