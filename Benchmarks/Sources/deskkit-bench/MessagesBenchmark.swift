import DeskKitInvariants
import DeskKitModel

/// decode + classify + visibility over a stream of mixed envelopes, on one core.
///
/// The mix: a third of the messages carry base64 data, a quarter are system messages with a ticket
/// object, the rest are plain user messages, rich messages (previews, CSAT, closure) and notifications.
enum MessagesBenchmark {
    static func makeLines(count: Int) -> [[UInt8]] {
        var rng = SplitMix64(seed: 2021)  // the same mix on every run
        let ticket =
            #"{"id": 4021, "channelName": "Order #1138", "channelUrl": "sendbird_desk_agent_chat_4021", "status": "ASSIGNED", "status2": "ACTIVE", "priority": "HIGH", "recentAssignment": {"agent": {"id": 77, "displayName": "Cindy", "photoThumbnailUrl": "https://example.com/c.png", "sendbirdId": "agent-cindy"}, "status": "IN_PROGRESS", "unreadCount": 2}, "customer": {"id": 9, "displayName": "Ann"}, "customFields": [{"key": "plan", "value": "gold"}], "group": 3, "firstResponseTime": 41, "issuedAt": "2021-03-04T05:06:07Z", "updatedAt": 1614834367000}"#
        let payloads: [(String, String?, String)] = [
            ("MESG", nil, ""),
            ("MESG", nil, ""),
            (
                "MESG", "SENDBIRD_DESK_RICH_MESSAGE",
                #"{"type": "SENDBIRD_DESK_URL_PREVIEW", "body": {"url": "https://sendbird.com/", "site_name": "Sendbird", "title": "A Complete Chat Platform", "description": "Chat, voice and video APIs", "image": "https://sendbird.com/thumb.png"}}"#
            ),
            (
                "MESG", "SENDBIRD_DESK_RICH_MESSAGE",
                #"{"type": "SENDBIRD_DESK_CUSTOMER_SATISFACTION", "body": {"state": "CONFIRMED", "customerSatisfactionScore": 4, "customerSatisfactionComment": "Thanks!", "ticketId": 4021}}"#
            ),
            (
                "MESG", "SENDBIRD_DESK_RICH_MESSAGE",
                #"{"type": "SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE", "body": {"state": "WAITING", "ticketId": 4021}}"#
            ),
            ("ADMM", nil, #"{"type": "NOTIFICATION_WELCOME"}"#),
        ]
        var lines: [[UInt8]] = []
        lines.reserveCapacity(count)
        for i in 0..<count {
            let system = i % 4 == 0
            let base64 = i % 3 == 0
            var (type, customType, data) = payloads[Int.random(in: 0..<payloads.count, using: &rng)]
            if system {
                type = "ADMM"
                customType = "SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE"
                data = #"{"type": "SYSTEM_MESSAGE_TICKET_ASSIGNED_BY_SYSTEM", "ticket": "# + ticket + "}"
            }
            if base64 && !data.isEmpty { data = Base64.encode(Array(data.utf8)) }
            var o: JSONObject = [
                "message_id": .integer(40_620_745 + Int64(i)), "type": .string(type),
                "message": .string(
                    system
                        ? "The ticket is automatically assigned to Cindy." : "Hello, my order #1138 has not arrived yet"
                ),
                "data": .string(data), "created_at": .integer(1_614_834_367_000 + Int64(i)),
            ]
            if let customType { o["custom_type"] = .string(customType) }
            var w = JSONWriter()
            w.write(.object(o))
            lines.append(w.bytes)
        }
        return lines
    }

    static func run(count: Int, passes: Int = 5) {
        let lines = makeLines(count: count)
        let bytes = lines.reduce(0) { $0 + $1.count + 1 }
        var decoder = DeskMessageDecoder()
        measure("DeskMessageDecoder", lines: lines, bytes: bytes, passes: passes) { line in
            decoder.decode(line.span)
        }
        measure("DeskMessage(jsonBytes:)", lines: lines, bytes: bytes, passes: passes) { line in
            DeskMessage(jsonBytes: line.span)
        }
    }

    /// Best of `passes` runs of decode + classify + visibility over every line.
    static func measure(
        _ name: String, lines: [[UInt8]], bytes: Int, passes: Int, _ decode: ([UInt8]) -> DeskMessage
    ) {
        var checksum = 0
        let seconds = bestSeconds(of: passes) {
            for line in lines {
                let message = decode(line)
                checksum &+= message.isVisible(to: .customer) ? 1 : 0
                checksum &+= message.content.kind.rawValue.utf8.count
            }
        }
        let perSecond = Double(lines.count) / seconds
        print(
            "messages (\(name)): \(lines.count) envelopes, \(bytes / lines.count) bytes average, best of \(passes): "
                + "\(Int(perSecond)) messages/s, \(String(format1: Double(bytes) / seconds / 1e6)) MB/s on one core "
                + "(checksum \(checksum))")
    }
}

extension String {
    init(format1 value: Double) {
        let scaled = Int(value * 10 + 0.5)
        self = "\(scaled / 10).\(scaled % 10)"
    }
}

enum ParseOnlyBenchmark {
    static func run(count: Int, passes: Int = 5) {
        let lines = MessagesBenchmark.makeLines(count: count)
        let bytes = lines.reduce(0) { $0 + $1.count }
        var n = 0
        let s = bestSeconds(of: passes) {
            for line in lines {
                if case .success(.object(let o)) = JSONValue.parseResult(line.span) { n &+= o.count }
            }
        }
        print(
            "parse-only (JSONValue tree of the envelope): \(Int(Double(count) / s)) lines/s, \(Int(Double(bytes) / s / 1e6)) MB/s (\(n))"
        )
    }
}
