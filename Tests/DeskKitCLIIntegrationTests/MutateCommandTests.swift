import Foundation
import Testing

@Suite("deskkit mutate")
struct MutateCommandTests {
    @Test func deterministicAndLabelled() async throws {
        let a = try await CLI.run(["mutate", "--count", "50", "--seed", "9"])
        let b = try await CLI.run(["mutate", "--count", "50", "--seed", "9"])
        let c = try await CLI.run(["mutate", "--count", "50", "--seed", "10"])
        #expect(a.status == 0)
        #expect(a.lines.count == 50)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout != c.stdout)
        let mutations = Set(try a.lines.map { try CLI.json($0)["mutation"] as? String ?? "" })
        #expect(mutations.count >= 8)
    }

    @Test func decodeAndValidateSurviveEveryVariant() async throws {
        let r = try await CLI.run(["mutate", "--count", "400", "--seed", "3"])
        let variants = try r.lines.map { try #require(Data(base64Encoded: CLI.json($0)["base64"] as? String ?? "")) }
        let nonBlank = variants.filter { v in v.contains { ![0x20, 0x09, 0x0D, 0x0A].contains($0) } }
        var input = Data()
        for v in nonBlank {
            input.append(v.filter { $0 != 0x0A })
            input.append(0x0A)
        }
        let decoded = try await CLI.run(["decode", "--messages"], bytes: input)
        #expect(decoded.status == 0)
        #expect(decoded.lines.count == nonBlank.count, "one answer per variant")
        let validated = try await CLI.run(["validate"], bytes: input)
        #expect(validated.status == 1, "problems found, no crash")
        #expect(validated.stdout.contains("\(nonBlank.count) lines checked"))
        let filtered = try await CLI.run(["filter", "--audience", "customer"], bytes: input)
        #expect(filtered.status == 0 || filtered.status == 1)
    }
}
