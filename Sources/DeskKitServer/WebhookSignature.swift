import Crypto

/// The `x-sendbird-signature` of a webhook: lowercase hex of HMAC-SHA256 of the raw body, keyed with
/// the application's API token.
public enum WebhookSignature {
    /// The header Sendbird signs its webhooks in.
    public static let headerName = "x-sendbird-signature"

    /// The signature of `body`.
    public static func sign(_ body: some Sequence<UInt8>, token: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(body), using: SymmetricKey(data: Array(token.utf8)))
        return mac.map { byte in
            let hex = Array("0123456789abcdef".utf8)
            return String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
        }.joined()
    }

    /// Whether `header` is the signature of `body` (hex in either case; compared in constant time).
    public static func isValid(_ header: String?, body: some Sequence<UInt8>, token: String) -> Bool {
        guard let header, let mac = hexBytes(header.utf8), mac.count == SHA256.byteCount else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array(body), using: SymmetricKey(data: Array(token.utf8)))
    }

    static func hexBytes(_ text: String.UTF8View) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8?
        for c in text {
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let h = high {
                bytes.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return bytes
    }
}
