extension StringProtocol {
    /// The string without the characters of `set` at either end.
    package func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
