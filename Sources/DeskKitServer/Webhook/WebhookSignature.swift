import Crypto
import DeskKitModel

/// The `x-sendbird-signature` of a webhook: lowercase hex of HMAC-SHA256 of the raw body, keyed with
/// the application's API token.
public enum WebhookSignature {
    /// The header Sendbird signs its webhooks in.
    public static let headerName = "x-sendbird-signature"

    /// The signature of `body`.
    public static func sign(_ body: some Sequence<UInt8>, token: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(body), using: SymmetricKey(data: Array(token.utf8)))
        return Hex.encode(mac)
    }

    /// Whether `header` is the signature of `body` (hex in either case; compared in constant time).
    public static func isValid(_ header: String?, body: some Sequence<UInt8>, token: String) -> Bool {
        guard let header, let mac = Hex.decode(header.utf8), mac.count == SHA256.byteCount else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(
            mac, authenticating: Array(body), using: SymmetricKey(data: Array(token.utf8)))
    }
}
