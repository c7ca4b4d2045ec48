import DeskKitJSON

/// DeskKit's formats as JSON Schema (draft 2020-12), one document each, compiled in: every Desk payload, the
/// Desk message, Sendbird's webhook, Pyrus's reply webhook and authorization request, and LiveTex's push.
///
/// Each document's `$id` is ``baseURI`` followed by its file name, and documents refer to each other by
/// relative `$ref`s (`common.json#/$defs/integer`), so a validator given all of them resolves every reference
/// offline. Strict validation (`deskkit validate --format NAME`) finds no problem exactly when a document
/// validates, except for the rules a schema cannot state, which each document's `description` names.
public enum DeskSchemas {
    /// One schema document.
    public struct Schema: Sendable, Hashable {
        /// The name: `deskkit schema NAME`, `/schemas/NAME.json`, the file `NAME.json`.
        public let name: String
        /// The document's JSON text, as kept in the repository.
        public let text: String

        /// The document's `title`.
        public var title: String { (try? JSONValue.parse(text))?["title"]?.stringValue ?? name }
        /// The document's `$id`: ``DeskSchemas/baseURI`` and `NAME.json`.
        public var id: String { DeskSchemas.baseURI + name + ".json" }
    }

    /// Where the documents' `$id`s start.
    public static let baseURI = "https://deskkit.dev/schemas/"

    /// Every document: the shared parts first, then the Desk data and its payloads, then the envelopes and
    /// webhooks.
    public static let all: [Schema] = [
        Schema(name: "common", bytes: PackageResources.common_json),
        Schema(name: "desk-data", bytes: PackageResources.desk_data_json),
        Schema(name: "url-preview", bytes: PackageResources.url_preview_json),
        Schema(name: "closure-inquiry", bytes: PackageResources.closure_inquiry_json),
        Schema(name: "customer-satisfaction", bytes: PackageResources.customer_satisfaction_json),
        Schema(name: "bot-answers", bytes: PackageResources.bot_answers_json),
        Schema(name: "notification", bytes: PackageResources.notification_json),
        Schema(name: "system-message", bytes: PackageResources.system_message_json),
        Schema(name: "desk-message", bytes: PackageResources.desk_message_json),
        Schema(name: "sendbird-webhook", bytes: PackageResources.sendbird_webhook_json),
        Schema(name: "pyrus-webhook", bytes: PackageResources.pyrus_webhook_json),
        Schema(name: "pyrus-auth", bytes: PackageResources.pyrus_auth_json),
        Schema(name: "livetex-webhook", bytes: PackageResources.livetex_webhook_json),
    ]

    /// The document called `name` (`desk-data`; a trailing `.json` is allowed), or nil.
    public static func named(_ name: String) -> Schema? {
        let bare = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        return all.first { $0.name == bare }
    }
}

extension DeskSchemas.Schema {
    init(name: String, bytes: [UInt8]) {
        self.init(name: name, text: String(decoding: bytes, as: UTF8.self))
    }
}
