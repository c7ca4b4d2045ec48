import Foundation
import FoundationXML
import Testing

/// Strings written to break out of HTML text, attributes, comments and CDATA.
public enum HostileText {
    public static let all = [
        "</title><script>alert(1)</script>",
        #""><img src=x onerror="alert(2)">"#,
        "<!-- ]]> &amp; </style><style>*{display:none}</style>",
        "' onmouseover='alert(4)",
    ]

    /// The text as an HTML attribute value holds it.
    public static func attribute(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
    }
}

/// A page read back as XML.
public struct Page {
    public let document: XMLDocument

    public init(_ html: String) throws {
        document = try XMLDocument(data: Data(html.utf8), options: [])
    }

    public func view(_ id: String) throws -> XMLNode {
        try #require(try document.nodes(forXPath: "//section[@id='\(id)']").first)
    }

    /// No script, no frame, no event handler, no link or image but http(s) and inline pictures.
    public func expectNothingActive(styleSheets: Int = 1) throws {
        #expect(try document.nodes(forXPath: "//script | //iframe | //object | //embed | //form").isEmpty)
        #expect(try document.nodes(forXPath: "//@*[starts-with(name(), 'on')]").isEmpty)
        for link in try document.nodes(forXPath: "//@href | //@src") {
            let value = link.stringValue ?? ""
            #expect(
                value.hasPrefix("https://") || value.hasPrefix("http://") || value.hasPrefix("data:image/png;base64,"),
                "\(value)")
        }
        let styles = try document.nodes(forXPath: "//style")
        #expect(styles.count == styleSheets)
    }
}

extension XMLNode {
    public func all(_ xpath: String) throws -> [XMLNode] { try nodes(forXPath: xpath) }
    public func text(_ xpath: String) throws -> String { try nodes(forXPath: xpath).first?.stringValue ?? "" }
}
