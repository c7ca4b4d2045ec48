/// A size-bounded cache with time-to-live, least recently used entries evicted first. Its instants are a
/// `ServiceClock`'s `elapsed` time.
struct PreviewCache<Value> {
    private struct Entry {
        var value: Value
        var expires: Duration
        var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { entries.count }

    mutating func value(for key: String, now: Duration) -> Value? {
        guard let entry = entries[key] else { return nil }
        guard entry.expires > now else {
            entries[key] = nil
            return nil
        }
        clock += 1
        entries[key]?.lastUse = clock
        return entry.value
    }

    mutating func insert(_ value: Value, for key: String, ttl: Duration, now: Duration) {
        clock += 1
        entries[key] = Entry(value: value, expires: now + ttl, lastUse: clock)
        if entries.count > capacity { evict(now: now) }
    }

    /// Drops the entries whose key `matches`; returns how many went.
    mutating func removeAll(where matches: (String) -> Bool) -> Int {
        let before = entries.count
        entries = entries.filter { !matches($0.key) }
        return before - entries.count
    }

    /// Drops expired entries, then the least recently used tenth (so eviction costs O(1) per insert on average).
    private mutating func evict(now: Duration) {
        entries = entries.filter { $0.value.expires > now }
        guard entries.count > capacity else { return }
        let drop = max(1, entries.count - capacity + capacity / 10)
        let oldest = entries.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(drop).map(\.key)
        for key in oldest { entries[key] = nil }
    }
}
