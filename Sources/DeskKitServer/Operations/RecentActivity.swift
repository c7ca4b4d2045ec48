import DeskKitFetchPolicy
import DeskKitModel
import DeskKitTime
import Foundation
import Synchronization

/// What the server did lately, kept in memory for the console (`GET /v1/queue`, `GET /v1/refusals`): webhooks
/// admitted, messages enriched and Platform API errors per minute for the last hour; why links got no card —
/// the refusals and the fetch failures, by kind — per minute for the last hour and per hour for the last day; and
/// the latest of them with their message. Bounded whatever the traffic: 60 minutes, 24 hours, the kinds DeskKit
/// knows, ``maxExamples`` examples. Counted on the server's clock; recording is a lock and an increment.
package final class RecentActivity: Sendable {
    /// One minute's counts.
    package struct Minute: Sendable, Hashable {
        /// The minute's start.
        package var start: Date
        /// Webhooks whose job was committed.
        package var admitted = 0
        /// Messages updated with a card.
        package var enriched = 0
        /// Jobs whose message update the Platform API refused or failed.
        package var errors = 0
    }

    /// A link that got no card, as the console lists it.
    package struct Example: Sendable, Hashable {
        package var at: Date
        package var url: String
        package var error: FetchError
        package var messageID: Int64?
        package var channelURL: String?
        /// The link's place among its job's links, from 0: how an operator inspects it whole
        /// (`GET /v1/inspect?message_id=…&link=…`).
        package var link: Int?
    }

    /// Examples kept: the latest 50.
    package static let maxExamples = 50

    private struct Slot {
        var number: Int64 = .min
        var minute: Minute
        var failures: [String: Int] = [:]
    }
    private struct HourSlot {
        var number: Int64 = .min
        var failures: [String: Int] = [:]
    }
    private struct State {
        var minutes = [Slot](repeating: Slot(minute: Minute(start: .distantPast)), count: 60)
        var hours = [HourSlot](repeating: HourSlot(), count: 24)
        var examples: [Example] = []
    }
    private let state = Mutex(State())
    private let clock: ServiceClock

    /// An empty record counted on `clock`.
    package init(clock: ServiceClock = .system) { self.clock = clock }

    /// A webhook's job was committed.
    package func admitted() { count { $0.admitted += 1 } }

    /// A job ended `outcome`: an update counts as enriched, a Platform API failure as an error.
    package func finished(_ outcome: JobOutcome) {
        if outcome == .updated {
            count { $0.enriched += 1 }
        } else if outcome.isFailure {
            count { $0.errors += 1 }
        }
    }

    /// A link of a message — its `link`th, from 0 — got `error` instead of a card.
    package func noCard(_ url: String, _ error: FetchError, messageID: Int64?, channelURL: String?, link: Int? = nil) {
        guard error.kind != .cancelled else { return }
        let now = clock.now()
        let kind = error.kind.rawValue
        state.withLock { s in
            Self.slot(&s, now: now) { $1[kind, default: 0] += 1 }
            let hour = Self.number(now, 3600)
            let h = Int(((hour % 24) + 24) % 24)
            if s.hours[h].number != hour { s.hours[h] = HourSlot(number: hour) }
            s.hours[h].failures[kind, default: 0] += 1
            s.examples.append(
                Example(at: now, url: url, error: error, messageID: messageID, channelURL: channelURL, link: link))
            if s.examples.count > Self.maxExamples { s.examples.removeFirst(s.examples.count - Self.maxExamples) }
        }
    }

    /// The last 60 minutes, oldest first, the current one last (a minute with nothing is zeros).
    package func lastHour() -> [Minute] {
        let now = Self.number(clock.now(), 60)
        return state.withLock { s in
            (0..<60).map { back in
                let number = now - Int64(59 - back)
                let slot = s.minutes[Self.index(number)]
                return slot.number == number ? slot.minute : Minute(start: Self.date(number, 60))
            }
        }
    }

    /// The links that got no card, by kind: in the last hour and in the last day; and the latest examples,
    /// newest first.
    package func failures() -> (hour: [String: Int], day: [String: Int], recent: [Example]) {
        let now = clock.now()
        let minute = Self.number(now, 60)
        let hour = Self.number(now, 3600)
        return state.withLock { s in
            var lastHour: [String: Int] = [:]
            for slot in s.minutes where slot.number > minute - 60 {
                lastHour.merge(slot.failures, uniquingKeysWith: +)
            }
            var lastDay: [String: Int] = [:]
            for slot in s.hours where slot.number > hour - 24 { lastDay.merge(slot.failures, uniquingKeysWith: +) }
            let day = now.addingTimeInterval(-86_400)
            return (lastHour, lastDay, s.examples.filter { $0.at > day }.reversed())
        }
    }

    private func count(_ change: (inout Minute) -> Void) {
        let now = clock.now()
        state.withLock { s in Self.slot(&s, now: now) { minute, _ in change(&minute) } }
    }

    /// The current minute's slot, emptied first when it held an older minute.
    private static func slot(_ s: inout State, now: Date, _ change: (inout Minute, inout [String: Int]) -> Void) {
        let number = number(now, 60)
        let i = index(number)
        if s.minutes[i].number != number {
            s.minutes[i] = Slot(number: number, minute: Minute(start: date(number, 60)))
        }
        var slot = s.minutes[i]
        change(&slot.minute, &slot.failures)
        s.minutes[i] = slot
    }

    private static func number(_ date: Date, _ seconds: Double) -> Int64 {
        Int64((date.timeIntervalSince1970 / seconds).rounded(.down))
    }
    private static func date(_ number: Int64, _ seconds: Double) -> Date {
        Date(timeIntervalSince1970: Double(number) * seconds)
    }
    private static func index(_ minute: Int64) -> Int { Int(((minute % 60) + 60) % 60) }
}
