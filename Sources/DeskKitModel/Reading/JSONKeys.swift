/// The members a decoder reads from one kind of object: the case names are the JSON keys, written out for the
/// table too (in the order the decoder likes; raw values 0, 1, 2, … as Swift gives them). ``Fields`` finds
/// all of them in one pass over the object's members instead of a scan of the object for each key.
///
/// ```swift
/// enum AgentKey: Int, JSONKeys {
///     case id, displayName
///     static let table = StringTable(keys: Self.self, "id displayName")
/// }
/// ```
protocol JSONKeys: CaseIterable, RawRepresentable where RawValue == Int {
    static var table: StringTable { get }
}

/// The value tokens of an object's members named by the keys of `K` (the last one when a key is repeated).
///
/// Plain data (no references, no generic layout), so that it is copied and dropped as bytes; built by the
/// synthesized memberwise initializer, which Swift fills in place (see ``DeskMessage``'s `decode`).
struct Fields<K: JSONKeys> {
    let object: JSONFields
    /// The value token of each key, -1 when the object has no such member.
    private let slots: SIMD16<Int32>
}

extension Fields {
    init(_ object: JSONFields) {
        self.init(object: object, slots: object.valueTokens(of: K.table))
    }

    /// The value token of `key`, nil when the object has no such member.
    subscript(key: K) -> Int? {
        let v = slots[key.rawValue]
        return v < 0 ? nil : Int(v)
    }

    /// The JSONPath of member `key`, for problems.
    func path(_ key: K) -> String { JSONPath.member(object.path, K.table[key.rawValue]) }
}

extension JSONFields {
    /// The members named by `K`'s keys, found in one pass.
    func fields<K: JSONKeys>(_: K.Type) -> Fields<K> { Fields(self) }

    /// The value token of each string of `table` among the object's members, -1 for one it lacks: ``Fields``'
    /// work, not generic, so that the web module (Embedded Swift specializes generics) has it once.
    @inline(never)
    fileprivate func valueTokens(of table: StringTable) -> SIMD16<Int32> {
        var slots = SIMD16<Int32>(repeating: -1)
        guard tape.kind(index) == .object else { return slots }
        // Written through memory: a vector's lane set by a variable index is a round trip through the stack.
        withUnsafeMutableBytes(of: &slots) { slots in
            var i = index + 1
            let end = tape.next(index)
            while i < end {
                if let j = tape.match(i, in: table) {
                    slots.storeBytes(of: Int32(truncatingIfNeeded: i + 1), toByteOffset: j &* 4, as: Int32.self)
                }
                i = tape.next(i + 1)
            }
        }
        return slots
    }
}

/// A short list of strings laid out for matching raw bytes against them: the keys of a ``JSONKeys`` enum,
/// or values met so often (data types, custom types) that every message can share one `String` of each
/// instead of allocating its own. Built once, into a `static let`, and kept for the life of the process.
struct StringTable: @unchecked Sendable {
    /// Plain pointers, so that copying a table costs no reference counting.
    private let values: UnsafeMutablePointer<String>
    private let bytes: UnsafeMutablePointer<UInt8>
    private let offsets: UnsafeMutablePointer<Int>
    /// Each string's length and first eight bytes (zero-padded): one comparison rules most strings out.
    private let heads: UnsafeMutablePointer<(length: Int, prefix: UInt64)>
    /// For each length below 64, a bit for each string of that length (63 stands for 63 and longer).
    private let byLength: UnsafeMutablePointer<UInt64>
    let count: Int

    /// The table of `strings` (at most 64).
    init(_ strings: [String]) {
        var table: StringTable?
        Self.build(&table, strings)
        self = table!
    }

    /// The keys of `K`, `names` separated by spaces in raw-value order: its case names. Written out because
    /// Embedded Swift (the web module) keeps no case names; natively, the first use checks them against the
    /// cases, so every test that decodes a payload would stop on a list out of step.
    init<K: JSONKeys>(keys: K.Type, _ names: StaticString) {
        var table: StringTable?
        Self.build(&table, names, rawValues: K.allCases.map { $0.rawValue })
        self = table!
        #if !hasFeature(Embedded)
            precondition((0..<count).map { self[$0] } == K.allCases.map { "\($0)" }, "\(K.self): keys \(names)")
        #endif
    }

    // The tables are built by functions that hand them back through `inout`: Embedded Swift (the web module)
    // inlines into a global's initializer every call whose result is stored into the global, `@inline(never)` or
    // not, so a table built by a returning function was a copy of all this code in each of the tables' globals.

    /// The table of `names` (separated by spaces), checked against the keys' raw values (0, 1, 2, … in order),
    /// into `table`.
    @inline(never)
    private static func build(_ table: inout StringTable?, _ names: StaticString, rawValues: [Int]) {
        var list: [String] = []
        var start = 0
        let bytes = UnsafeBufferPointer(start: names.utf8Start, count: names.utf8CodeUnitCount)
        for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: " ") {
            if end > start {
                list.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
            }
            start = end + 1
        }
        precondition(
            list.count <= 16 && rawValues.elementsEqual(0..<list.count), "at most 16 keys, with raw values 0, 1, 2, …")
        build(&table, list)
    }

    /// The table of `strings`, into `table`.
    @inline(never)
    private static func build(_ table: inout StringTable?, _ strings: [String]) {
        table = StringTable(laidOut: strings)
    }

    private init(laidOut strings: [String]) {
        precondition(strings.count <= 64, "a string table holds at most 64 strings")
        count = strings.count
        values = .allocate(capacity: max(count, 1))
        values.initialize(from: strings, count: count)
        let total = strings.reduce(0) { $0 + $1.utf8.count }
        bytes = .allocate(capacity: max(total, 1))
        offsets = .allocate(capacity: count + 1)
        heads = .allocate(capacity: max(count, 1))
        byLength = .allocate(capacity: 64)
        byLength.initialize(repeating: 0, count: 64)
        var at = 0
        for (i, s) in strings.enumerated() {
            offsets[i] = at
            for b in s.utf8 {
                bytes[at] = b
                at += 1
            }
            heads[i] = (s.utf8.count, Self.prefix(bytes + offsets[i], count: s.utf8.count))
            byLength[min(s.utf8.count, 63)] |= 1 << UInt64(i)
        }
        offsets[count] = at
    }

    subscript(i: Int) -> String { values[i] }

    /// The first eight bytes of `raw` (fewer when it is shorter), little-endian, zero-padded. With
    /// `readable` (bytes that may be read from `raw`) of at least 8 they are loaded at once.
    @inline(__always) static func prefix(_ raw: UnsafePointer<UInt8>, count: Int, readable: Int = 0) -> UInt64 {
        if readable >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(raw).loadUnaligned(as: UInt64.self))
            return count >= 8 ? word : word & ((1 &<< (8 &* UInt64(count))) &- 1)
        }
        var p: UInt64 = 0
        for i in 0..<min(count, 8) { p |= UInt64(raw[i]) &<< (8 &* UInt64(i)) }
        return p
    }

    /// The index of the string whose UTF-8 is `raw` (of which `readable` bytes may be read).
    @inline(__always) func index(of raw: UnsafePointer<UInt8>, count n: Int, readable: Int = 0) -> Int? {
        var candidates = byLength[min(n, 63)]
        guard candidates != 0 else { return nil }
        let p = Self.prefix(raw, count: n, readable: readable)
        while candidates != 0 {
            let i = candidates.trailingZeroBitCount
            candidates &= candidates &- 1
            if heads[i].length == n && heads[i].prefix == p
                && (n <= 8 || memEqual(raw + 8, bytes + offsets[i] + 8, n &- 8))
            {
                return i
            }
        }
        return nil
    }

    /// The index of `string`.
    func index(of string: String) -> Int? {
        var string = string
        return string.withUTF8 { index(of: $0.baseAddress ?? UnsafePointer(bytes), count: $0.count) }
    }
}

extension JSONTape {
    /// The index in `table` of string token `i`'s text.
    @inline(__always) func match(_ i: Int, in table: StringTable) -> Int? {
        let t = tokens[i]
        if t.flags & Self.escaped == 0 {
            let start = Int(t.start)
            return table.index(
                of: bytes.baseAddress! + start, count: Int(t.end &- t.start), readable: bytes.count &- start)
        }
        return table.index(of: string(at: i))
    }

    /// The shared string of `table` equal to string token `i`, if there is one.
    @inline(__always) func knownString(at i: Int, _ table: StringTable) -> String? {
        match(i, in: table).map { table[$0] }
    }

    /// The value of number token `i` when it is written as an integer that fits in 64 bits.
    func integer(at i: Int) -> Int64? {
        let t = tokens[i]
        guard t.flags & Self.fractional == 0 else { return nil }
        return Self.integer(UnsafeBufferPointer(rebasing: bytes[Int(t.start)..<Int(t.end)]))
    }
}
