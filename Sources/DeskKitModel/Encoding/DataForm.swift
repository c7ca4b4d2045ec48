/// How to write `data`.
public enum DataForm: String, Sendable, Hashable, CaseIterable {
    /// Raw JSON text: what Android, JS, the dashboard and the Platform API use. The default.
    case json
    /// Standard, padded base64 of the JSON text, as the iOS documentation writes.
    case base64
}
