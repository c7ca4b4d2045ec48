/// Durations as settings and flags write them: `500ms`, `90s`, `1.5s`, `30m`, `12h`, `7d`, or a bare number
/// of seconds (`10`, `2.5`). A number and one unit; the one reader of durations for `deskkit serve`'s
/// settings, `deskkit jobs` and `deskkit preview`.
package enum DurationText {
    /// What a duration may be written as, for error messages.
    package static let examples = "500ms, 10s, 5m, 12h or 7d"

    /// The duration `text` writes, to the nanosecond, or nil when it is none (an unknown unit, a sign, an
    /// exponent, more than a hundred years).
    package static func parse(_ text: String) -> Duration? {
        let suffix = text.hasSuffix("ms") ? "ms" : text.last.map { $0.isNumber ? "" : String($0) } ?? ""
        let number = text.dropLast(suffix.count)
        let dots = number.utf8.filter { $0 == UInt8(ascii: ".") }.count
        guard !number.isEmpty, number.count <= 16, dots <= 1, number.first != ".", number.last != ".",
            number.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }),
            let value = Double(number)
        else { return nil }
        let unit: Double
        switch suffix {
        case "ms": unit = 0.001
        case "", "s": unit = 1
        case "m": unit = 60
        case "h": unit = 3600
        case "d": unit = 86400
        default: return nil
        }
        let seconds = value * unit
        guard seconds <= 100 * 365 * 86400 else { return nil }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// `duration` as a setting writes it, in the largest unit that divides it (`10m`, `1h`, `1d`, `1500ms`),
    /// for help and problems: ``parse(_:)`` reads it back to the millisecond.
    package static func format(_ duration: Duration) -> String {
        let milliseconds = duration / .milliseconds(1)
        guard milliseconds.rounded() == milliseconds, milliseconds.truncatingRemainder(dividingBy: 1000) == 0 else {
            return "\(Int64(milliseconds.rounded()))ms"
        }
        let seconds = Int64(milliseconds / 1000)
        for (unit, size) in [("d", Int64(86400)), ("h", 3600), ("m", 60)] where seconds != 0 && seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}
