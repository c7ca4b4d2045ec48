/// Durations as settings and flags write them: `500ms`, `90s`, `30m`, `12h`, `7d`, or a bare number of
/// seconds (`10`). A whole number and one unit; the one reader of durations for `deskkit serve`'s settings
/// and `deskkit jobs`.
public enum DurationText {
    /// What a duration may be written as, for error messages.
    public static let examples = "500ms, 10s, 5m, 12h or 7d"

    /// The duration `text` writes, or nil when it is none (an unknown unit, a sign, a fraction, more than a
    /// hundred years).
    public static func parse(_ text: String) -> Duration? {
        let suffix = text.hasSuffix("ms") ? "ms" : text.last.map { $0.isNumber ? "" : String($0) } ?? ""
        let digits = text.dropLast(suffix.count)
        guard !digits.isEmpty, digits.count <= 12, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let n = Int64(digits)
        else { return nil }
        let duration: Duration
        switch suffix {
        case "ms": duration = .milliseconds(n)
        case "", "s": duration = .seconds(n)
        case "m": duration = .seconds(n * 60)
        case "h": duration = .seconds(n * 3600)
        case "d": duration = .seconds(n * 86400)
        default: return nil
        }
        return duration <= .seconds(100 * 365 * 86400) ? duration : nil
    }
}
