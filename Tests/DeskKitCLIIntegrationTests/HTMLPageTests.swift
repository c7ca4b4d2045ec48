import DeskKitInvariants
import DeskKitModel
import DeskKitPageServer
import DeskKitTestSupport
import Foundation
import Testing

@testable import deskkit

/// The HTML pages of `deskkit demo --html` and `deskkit preview --html`, read back with an XML parser: the page
/// is well-formed XML, so a payload that broke out of its text would break the parse or show up as markup.
@Suite("HTML pages")
struct HTMLPageTests {
    @Test func demoRunsFromAnyDirectoryAndShowsBothViews() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deskkit-html-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let text = try await CLI.run(["demo"], directory: directory)
        #expect(text.status == 0, "the pages and the conversation are compiled in")
        #expect(text.stdout.contains("Parcel 1138: delayed at the Riverside depot"))
        let r = try await CLI.run(["demo", "--html", "demo.html"], directory: directory)
        #expect(r.status == 0)
        #expect(r.stderr.contains("0 failed"))
        let html = try String(contentsOf: directory.appendingPathComponent("demo.html"), encoding: .utf8)
        let page = try Page(html)

        let customer = try page.view("customer")
        let agent = try page.view("agent")
        #expect(try customer.all(".//li[@class='system']").isEmpty, "system messages are hidden from customers")
        #expect(try agent.all(".//li[@class='system']").count == 2)
        #expect(try customer.text(".//li[contains(@class, 'closed')]").contains("ticket is closed"))
        #expect(try customer.text(".//footer") == "This ticket is closed.")
        for view in [customer, agent] {
            let titles = try view.all(".//a[@class='deskkit-card']/div/div[@class='deskkit-card-title']").map {
                $0.stringValue ?? ""
            }
            #expect(
                titles == [
                    "Parcel 1138: delayed at the Riverside depot", "parcel-map.png",
                    "What happens when a parcel is lost? — Acme Help Centre", "返品・交換について",
                ])
            let images = try view.all(".//a[@class='deskkit-card']/div[@class='deskkit-card-media']/img/@src").map {
                $0.stringValue ?? ""
            }
            #expect(images.count == 3)
            #expect(images.allSatisfy { $0.hasPrefix("data:image/png;base64,") }, "the page carries its pictures")
            // The inquiry answered: what was answered, as text (no buttons left to press).
            #expect(try view.all(".//div[@class='inquiry']/button").isEmpty)
            #expect(
                try view.text(".//div[@class='inquiry']/span[@class='state']")
                    == "✔ The customer agreed to close the ticket")
            #expect(try view.text(".//span[@class='stars']") == "★★★★★")
            #expect(try view.text(".//div[@class='csat']/q") == "Quick and kind, thanks Cindy!")
        }
        // The customer's own messages sit on the right in the customer's view, the agent's in the agent's.
        #expect(
            try customer.all(".//li[@class='message mine']/div/span[@class='who']").allSatisfy {
                $0.stringValue == "Ann"
            })
        #expect(
            try agent.all(".//li[@class='message mine']/div/span[@class='who']").allSatisfy {
                $0.stringValue == "Cindy"
            })
        try page.expectNothingActive()
    }

    @Test func mutateTakesSeedsFromAnyDirectoryOrStandardInput() async throws {
        let directory = FileManager.default.temporaryDirectory
        let builtIn = try await CLI.run(["mutate", "--count", "5"], directory: directory)
        #expect(builtIn.status == 0)
        #expect(builtIn.lines.count == 5)
        let piped = try await CLI.run(
            ["mutate", "-", "--count", "3", "--seed", "2"], stdin: #"{"type":"MESG","message":"hi","data":""}"#,
            directory: directory)
        #expect(piped.status == 0)
        #expect(try piped.lines.allSatisfy { try CLI.json($0)["source_line"] as? Int == 1 })
    }

    @Test func previewPageEscapesWhatThePageSays() async throws {
        let hostile = HostileText.all
        let server = try await PageServer.start { _ in
            .html(
                """
                <title>x</title>
                <meta property="og:title" content="\(HostileText.attribute(hostile[0]))">
                <meta property="og:description" content="\(HostileText.attribute(hostile[1]))">
                <meta property="og:site_name" content="\(HostileText.attribute(hostile[3]))">
                <meta property="og:image" content="javascript:alert(3)">
                """)
        }
        defer { Task { try await server.stop() } }
        let url = server.baseURL + "/a"
        let r = try await CLI.run(["preview", "--allow-private", "--html", "-", "see \(url) <b>now</b>"])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try Page(r.stdout)
        let card = try #require(try page.view("customer").all(".//a[@class='deskkit-card']").first)
        #expect(try card.nodes(forXPath: "div/div[@class='deskkit-card-title']").first?.stringValue == hostile[0])
        #expect(try card.nodes(forXPath: "div/div[@class='deskkit-card-description']").first?.stringValue == hostile[1])
        #expect(try card.nodes(forXPath: "div/div[@class='deskkit-card-site']").first?.stringValue == hostile[3])
        #expect(try card.nodes(forXPath: ".//img").isEmpty, "a javascript: image is not loaded")
        #expect(try page.view("customer").text(".//div[@class='bubble']") == "see \(url) <b>now</b>")
        try page.expectNothingActive()

        let failed = try await CLI.run(["preview", "--html", "-", "http://127.0.0.1:1/x"])
        #expect(failed.status == 1)
        #expect(try Page(failed.stdout).view("agent").text(".//div[@class='note']").contains("no preview for"))
    }
}
