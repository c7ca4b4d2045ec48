/// Shared reading of the other systems' JSON bodies: the same tape, reader and problems as Desk messages.
enum OtherSystemsDecoding {
    static func decode<T>(
        _ json: some Collection<UInt8>, options: DecodingOptions, _ read: (JSONFields, inout FieldReader) -> T?
    ) -> (value: T?, problems: [PayloadProblem]) {
        var reader = FieldReader()
        let value: T? = Array(json).withUnsafeBufferPointer { bytes in
            JSONTape.withParsed(bytes, limits: options.limits) { parsed in
                switch parsed {
                case .failure(let error):
                    reader.report(.syntax(error.code), "$", error.description)
                    return nil
                case .success(let tape):
                    guard tape.kind(0) == .object else {
                        reader.report(.wrongType, "$", "expected an object, found \(tape.typeName(0))")
                        return nil
                    }
                    if options.checksDuplicateKeys { reader.checkDuplicateKeys(tape, 0, at: "$") }
                    return read(JSONFields(tape: tape, index: 0, root: "$"), &reader)
                }
            }
        }
        return (reader.hasFatalProblem ? nil : value, reader.problems)
    }
}

extension FieldReader {
    /// The string at `o.outer.inner` when there is one, and nil for anything else, without a problem: for a
    /// hint a client may set as it likes (a sender's metadata), whose absence changes nothing.
    func hint(_ o: JSONFields, _ outer: StaticString, _ inner: StaticString) -> String? {
        guard let v = o[outer], o.tape.kind(v) == .object else { return nil }
        let object = o.child(v)
        guard let s = object[inner], object.tape.kind(s) == .string else { return nil }
        return object.tape.string(at: s)
    }

    /// An id written as a string or as a number, kept as text.
    mutating func identifier(_ o: JSONFields, _ key: StaticString, required: Bool = false) -> String? {
        if let v = o[key], o.tape.kind(v) == .number { return o.tape.numberText(at: v) }
        return string(o, key, required: required)
    }

    mutating func bool(_ o: JSONFields, _ key: StaticString) -> Bool? {
        guard let v = o[key] else { return nil }
        switch o.tape.kind(v) {
        case .true: return true
        case .false: return false
        case .null: return nil
        default:
            report(.wrongType, o.path(key), "expected a boolean, found \(o.tape.typeName(v))")
            return nil
        }
    }

    /// A time as ISO 8601 text (`2024-05-01T10:20:30Z`, with fractions and offsets) or epoch seconds or
    /// milliseconds: the text as written and seconds since 1970.
    mutating func timestamp(_ o: JSONFields, _ key: StaticString) -> (String?, Double?) {
        guard let v = o[key], o.tape.kind(v) != .null else { return (nil, nil) }
        if o.tape.kind(v) == .number, let d = Double(o.tape.numberText(at: v)) {
            return (o.tape.numberText(at: v), d > 1e11 ? d / 1000 : d)
        }
        guard let text = string(o, key) else { return (nil, nil) }
        guard let seconds = ISO8601.seconds(text) else {
            report(.wrongType, o.path(key), "expected an ISO 8601 time or epoch seconds, found \"\(text.prefix(40))\"")
            return (text, nil)
        }
        return (text, seconds)
    }
}

/// ISO 8601 date-times without Foundation.
enum ISO8601 {
    static func seconds(_ s: String) -> Double? {
        let u = Array(s.utf8)
        func num(_ r: Range<Int>) -> Int? {
            guard r.upperBound <= u.count else { return nil }
            var v = 0
            for i in r {
                guard u[i] >= 0x30 && u[i] <= 0x39 else { return nil }
                v = v * 10 + Int(u[i] - 0x30)
            }
            return v
        }
        guard u.count >= 19, let y = num(0..<4), u[4] == 0x2D, let mo = num(5..<7), u[7] == 0x2D, let d = num(8..<10),
            u[10] == 0x54 || u[10] == 0x20, let h = num(11..<13), u[13] == 0x3A, let mi = num(14..<16), u[16] == 0x3A,
            let se = num(17..<19), (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, se < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < u.count, u[i] == 0x2E {
            i += 1
            var scale = 0.1
            while i < u.count, u[i] >= 0x30 && u[i] <= 0x39 {
                fraction += Double(u[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
        }
        var offset = 0
        if i < u.count {
            if u[i] == 0x5A {
                i += 1
            } else if u[i] == 0x2B || u[i] == 0x2D, let oh = num(i + 1..<i + 3) {
                let colon = i + 3 < u.count && u[i + 3] == 0x3A
                guard let om = num((i + (colon ? 4 : 3))..<(i + (colon ? 6 : 5))) else { return nil }
                offset = (oh * 3600 + om * 60) * (u[i] == 0x2D ? -1 : 1)
                i += colon ? 6 : 5
            }
        }
        guard i == u.count else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86_400 + h * 3600 + mi * 60 + se - offset) + fraction
    }
}

/// `application/x-www-form-urlencoded` values.
enum FormDecoding {
    /// A form field, `+` and `%XX` decoded; nil when it is not UTF-8 (raw or decoded) or a `%` is not
    /// followed by two hex digits.
    static func decode(_ field: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        var it = field.makeIterator()
        while let c = it.next() {
            switch c {
            case UInt8(ascii: "+"): out.append(0x20)
            case UInt8(ascii: "%"):
                guard let a = it.next().flatMap(Hex.value), let b = it.next().flatMap(Hex.value) else { return nil }
                out.append(a << 4 | b)
            default: out.append(c)
            }
        }
        return UTF8Validation.isValid(out) ? String(decoding: out, as: UTF8.self) : nil
    }
}

extension PyrusReplyWebhook {
    /// The webhook as JSON (snake_case), with its reply summary.
    public var jsonValue: JSONValue {
        [
            "ticket_id": .integer(ticketID),
            "token": [
                "user_id": .optional(token.userID), "app_id": .optional(token.appID),
                "device_id": .optional(token.deviceID), "type": .optional(token.type),
            ],
            "comment": [
                "comment_id": .optional(comment.commentID), "body": .optional(comment.body),
                "is_inbound": comment.isInbound.map(JSONValue.bool) ?? .null,
            ],
            "author": author.map {
                [
                    "name": .optional($0.name), "avatar_id": .optional($0.avatarID),
                    "avatar_color": .optional($0.avatarColor),
                ]
            }
                ?? .null,
            "created_at": .optional(createdAt),
            "attachments": .array(
                attachments.map { ["id": .optional($0.id), "name": .optional($0.name), "size": .optional($0.size)] }),
            "summary": [
                "has_unread_comments": .bool(summary.hasUnreadComments),
                "last_comment_text": .optional(summary.lastCommentText),
                "last_comment_attachments_count": .integer(Int64(summary.lastCommentAttachmentsCount)),
                "last_comment_attachments": .array(summary.lastCommentAttachments.map(JSONValue.string)),
                "utc_time": summary.utcTime.map { .number(String($0)) } ?? .null,
            ],
        ]
    }
}

extension PyrusAuthRequest {
    /// The request as JSON for logs and the CLI: the security key's length, never the key.
    public var jsonValue: JSONValue {
        [
            "app_id": .string(appID), "user_id": .string(userID),
            "security_key_length": .integer(Int64(securityKey.count)),
        ]
    }
}

extension LiveTexPush {
    /// The push as JSON, with its kind.
    public var jsonValue: JSONValue {
        [
            "kind": .string(kind.rawValue), "version": .string(version), "platform": .string(platform),
            "to": .string(to),
            "text": .optional(text), "url": .optional(url), "notification_text": .string(notificationText),
        ]
    }
}
