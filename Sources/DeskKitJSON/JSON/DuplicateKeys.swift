/// Which keys of an object repeat an earlier one: strict validation's rule, for ``JSONValue/Object`` and the
/// message decoders' readers alike. Keys are equal as Swift strings are (canonically equivalent).
package enum DuplicateKeys {
    /// The positions in `keys` where a key appears for the second time, in order (a third appearance is not
    /// listed again). Sorting, not hashing: O(n log n), and the web module carries no hashing code for it.
    package static func secondAppearances(_ keys: [String]) -> [Int] {
        // A stable sort puts equal keys side by side in the order they appear.
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        var isSecond = [Bool](repeating: false, count: keys.count)
        var first = 0
        while first < order.count {
            var next = first + 1
            while next < order.count, keys[order[next]] == keys[order[first]] { next += 1 }
            if next - first > 1 { isSecond[order[first + 1]] = true }
            first = next
        }
        return keys.indices.filter { isSecond[$0] }
    }
}
