import DeskKitCards
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /console` and its files, open (the page holds no data: it asks the API with the key the operator enters,
/// kept in the tab's session storage only). The files are compiled in (`Console/`): the page, its module and
/// style sheet, and the web package's `render.mjs` (`Console/render.mjs` links to `Web/render.mjs`); `card.css` is
/// `CardHTML.styleSheet`, which a test keeps equal to `Web/card.css`,
/// so that a card shows as a customer's widget draws it. Nothing comes from anywhere else: the
/// Content-Security-Policy allows the server's own scripts, styles, images and API only — no inline script or
/// style, no frame, no form posted elsewhere.
struct ConsoleRoute: Sendable {
    /// A file of the console and its type.
    struct File: Sendable {
        let bytes: [UInt8]
        let type: String
    }

    /// The page at `/console`.
    static let page = File(bytes: PackageResources.console_html, type: "text/html; charset=utf-8")

    /// The files under `/console/`, by name.
    static let files: [String: File] = [
        "console.mjs": File(bytes: PackageResources.console_mjs, type: "text/javascript; charset=utf-8"),
        "console.css": File(bytes: PackageResources.console_css, type: "text/css; charset=utf-8"),
        "render.mjs": File(bytes: PackageResources.render_mjs, type: "text/javascript; charset=utf-8"),
        "card.css": File(bytes: Array(CardHTML.styleSheet.utf8), type: "text/css; charset=utf-8"),
    ]

    /// The console's policy: its own origin for everything it loads, nothing inline, no framing.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    func handle(_ name: String?) throws(RequestProblem) -> Response {
        guard let file = name.map({ Self.files[$0] }) ?? Self.page else {
            throw RequestProblem(.notFound, "no such file of the console")
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: file.type, .contentSecurityPolicy: Self.contentSecurityPolicy,
                .xContentTypeOptions: "nosniff", .referrerPolicy: "no-referrer", .cacheControl: "no-cache",
                .crossOriginOpenerPolicy: "same-origin",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
}
