/// The demo's conversation, pages and pictures (`Demo/`), compiled into the binary by SwiftPM
/// (`.embedInCode`), so `deskkit demo` and `deskkit mutate` need no checkout.
enum DemoFiles {
    /// The sample conversation, one JSON message a line; its links name `{{base}}`, the demo server's address.
    static var conversation: [String] {
        PackageResources.order_late_jsonl.split(separator: UInt8(ascii: "\n")).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// A file the demo server serves, by the path of a link: a page's path with `-` for `/` (`/tracking/1138`
    /// is `tracking-1138.html`), a picture by its file name wherever it is linked from.
    static func file(at path: String) -> (bytes: [UInt8], contentType: String)? {
        let components = path.split(separator: "?").first.map { $0.split(separator: "/") } ?? []
        guard let last = components.last else { return nil }
        if last.hasSuffix(".png") { return pictures[String(last)].map { ($0, "image/png") } }
        // The pages say their charset themselves (one is Shift_JIS).
        return pages[components.joined(separator: "-")].map { ($0, "text/html") }
    }

    private static let pages: [String: [UInt8]] = [
        "tracking-1138": PackageResources.tracking_1138_html,
        "help-lost-parcels": PackageResources.help_lost_parcels_html,
        "returns-ja": PackageResources.returns_ja_html,
    ]

    private static let pictures: [String: [UInt8]] = [
        "parcel-map.png": PackageResources.parcel_map_png,
        "lost-parcel.png": PackageResources.lost_parcel_png,
    ]
}
