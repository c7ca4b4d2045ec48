import Foundation
import Testing

@Suite("deskkit preview and demo")
struct PreviewCommandTests {
    @Test func previewRefusesLoopbackWithATypedError() throws {
        let r = try CLI.run(["preview", "see http://127.0.0.1:8080/admin"])
        #expect(r.status == 1)
        let json = try CLI.json(try #require(r.lines.first))
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["kind"] as? String == "blocked_address")
        #expect((error["detail"] as? String)?.contains("port 8080") == true)
        let decimal = try CLI.run(["preview", "http://2130706433/"])
        let detail = ((try CLI.json(decimal.lines[0]))["error"] as? [String: Any])?["detail"] as? String
        #expect(detail?.hasPrefix("2130706433 (127.0.0.1) is loopback (--allow-private") == true)
    }

    @Test func demoShowsBothViewsWithPreviews() throws {
        let r = try CLI.run(["demo"])
        #expect(r.status == 0)
        let out = r.stdout
        let customer = try #require(out.range(of: "What the customer sees"))
        let agent = try #require(out.range(of: "What the agent sees"))
        let customerView = String(out[customer.upperBound..<agent.lowerBound])
        let agentView = String(out[agent.upperBound...])
        #expect(customerView.contains("Parcel 1138: delayed at the Riverside depot"))
        #expect(customerView.contains("返品・交換について"), "the Shift_JIS page decoded")
        #expect(customerView.contains("What happens when a parcel is lost? — Acme Help Centre"))
        #expect(!customerView.contains("automatically assigned"), "system messages are hidden from customers")
        #expect(customerView.contains("ticket closed"), "but the client learns the ticket is closed")
        #expect(agentView.contains("automatically assigned to Cindy"))
        #expect(agentView.contains("★★★★★"))
        #expect(r.stderr.contains("0 failed"))
    }
}
