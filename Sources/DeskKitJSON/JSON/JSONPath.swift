/// JSONPath text for problems: `$.body.state`, `$.results[2].url`, `$['odd key']`.
package enum JSONPath {
    package static func member(_ path: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { c in
                (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F
            }
        if plain { return path + "." + key }
        let escaped = key.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'")
        return path + "['" + escaped + "']"
    }
}

extension String {
    /// The string with every `target` replaced.
    package func replacingAll(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
