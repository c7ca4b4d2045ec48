// The elements the collector tells apart, looked up by name for every element of the page.

extension Collector {
    /// The elements the collector reacts to. For the body-text fallback, `.inline` elements run on within
    /// a block of text, `.hidden` ones hold no visible text (navigation, forms, scripts, headings, media),
    /// and every other element (`.other`) starts or ends a block. `noscript`, `form` and `iframe` are hidden,
    /// `input` inline; they are named for the signals they give (`PageSignals`).
    enum Tag: String, CaseIterable {
        case svg, math, head, body, meta, link, base, title, script, h1, p, img, image, a, br, inline, hidden, other
        case noscript, form, iframe, input, textarea, appRoot = "app-root", article, select

        /// The tag named by `name`, a NUL-terminated name as libxml2's HTML parser reports it (lowercase),
        /// without building a String: this runs for every element of the page.
        init(_ name: UnsafePointer<UInt8>) {
            var key: UInt64 = 0
            var i = 0
            while name[i] != 0 {
                if i == 8 {
                    self = .other
                    return
                }
                key = key << 8 | UInt64(name[i])
                i += 1
            }
            // Binary search of the sorted keys: no hashing for each element of the page.
            var low = 0
            var high = Self.keys.count
            while low < high {
                let mid = (low + high) / 2
                if Self.keys[mid] < key { low = mid + 1 } else { high = mid }
            }
            self = low < Self.keys.count && Self.keys[low] == key ? Self.tags[low] : .other
        }

        private static let keys: [UInt64] = table.map(\.key)
        private static let tags: [Tag] = table.map(\.tag)

        /// Each name's key (its up to eight bytes, big-endian) and tag, sorted by key.
        private static let table: [(key: UInt64, tag: Tag)] = {
            var table: [UInt64: Tag] = [:]
            func add(_ names: [String], _ tag: Tag) {
                for name in names { table[name.utf8.reduce(0) { $0 << 8 | UInt64($1) }] = tag }
            }
            for tag in allCases where ![.inline, .hidden, .other].contains(tag) { add([tag.rawValue], tag) }
            add(
                [
                    "span", "em", "strong", "b", "i", "u", "s", "small", "big", "abbr", "code", "time", "mark", "sub",
                    "sup", "cite", "q", "font", "bdi", "bdo", "kbd", "var", "dfn", "data", "del", "ins",
                    "tt", "nobr", "label", "embed", "wbr",
                ], .inline)
            add(
                [
                    "style", "nav", "header", "footer", "aside", "button", "template",
                    "option", "object", "canvas", "audio", "video", "picture", "figure",
                    "h2", "h3", "h4", "h5", "h6", "dialog", "menu",
                ], .hidden)
            return table.map { ($0.key, $0.value) }.sorted { $0.key < $1.key }
        }()
    }
}
