#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import DeskKitModel

/// A check, not a timing: how many times decoding a message retains an object, counted by the Swift
/// runtime's own hooks (`_swift_retain`, there for instrumentation). Deterministic for a build; meaningful
/// only in an optimized one (a debug build copies either way).
///
/// `DeskMessage`, `SystemMessage`, `Ticket` and their parts are built in place because their decoding
/// initializers end in the memberwise initializer Swift synthesizes (see `DeskMessage.decode`); an
/// initializer that assigns the fields itself copies the whole value at its end, each string and array
/// retained again. That costs only time, so no unit test sees it: this counts the retains of one decode of
/// a system message whose strings are all on the heap, and fails (exit status 1) above the budget.
enum LayoutCheck {
    /// Retains allowed for one decode of ``message``. Swift 6.3.1 takes 9 when the values are built in
    /// place and 23 when `Ticket`'s decoding initializer assigns its fields itself (tried): room for a
    /// toolchain's change, none for a whole copy.
    static let budget = 15

    typealias RetainN = @convention(c) (UnsafeMutableRawPointer?, UInt32) -> UnsafeMutableRawPointer?
    typealias Retain = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    nonisolated(unsafe) static var retains = 0
    nonisolated(unsafe) static var retain: Retain?
    nonisolated(unsafe) static var retainN: RetainN?

    /// A system message with a full ticket, every string longer than 15 bytes (a shorter one is stored
    /// inline and never retained).
    static let message = Array(
        #"""
        {"message_id": 40620745, "type": "ADMM", "custom_type": "SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE",
         "message": "The ticket is automatically assigned to Cindy Lauper.", "created_at": 1614834367000,
         "data": "{\"type\": \"SYSTEM_MESSAGE_TICKET_ASSIGNED_BY_SYSTEM\", \"ticket\": {\"id\": 4021, \"channelName\": \"Order #1138 has not arrived\", \"channelUrl\": \"sendbird_desk_agent_chat_4021\", \"status\": \"ASSIGNED_TO_AN_AGENT\", \"status2\": \"ACTIVE_AND_WAITING\", \"priority\": \"HIGH_PRIORITY_TICKET\", \"info\": \"{\\\"order\\\": \\\"1138-ABCDEFGHIJ\\\"}\", \"recentAssignment\": {\"agent\": {\"id\": 77, \"displayName\": \"Cindy Lauper of Support\", \"photoThumbnailUrl\": \"https://example.com/cindy.png\", \"sendbirdId\": \"agent-cindy-lauper-77\"}, \"status\": \"IN_PROGRESS_WITH_AGENT\", \"unreadCount\": 2}, \"customer\": {\"id\": 9, \"displayName\": \"Ann Customer Smith\"}, \"customFields\": [{\"key\": \"subscription-plan\", \"value\": \"gold-annual-plan\"}], \"group\": 3, \"firstResponseTime\": 41, \"issuedAt\": \"2021-03-04T05:06:07Z\", \"updatedAt\": 1614834367000}}"}
        """#.utf8)

    static func run() -> Bool {
        guard let image = dlopen(nil, RTLD_NOW),
            let enable = dlsym(image, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly"),
            let retainSlot = dlsym(image, "_swift_retain"), let retainNSlot = dlsym(image, "_swift_retain_n")
        else {
            print("layout: the Swift runtime has no retain hooks here; not checked")
            return true
        }
        var decoder = DeskMessageDecoder()
        let warm = decoder.decode(message.span)  // lazy globals, scratch memory
        guard case .systemMessage(let system) = warm.content, system.ticket?.recentAssignment != nil else {
            print("layout: the sample did not decode as a system message with its ticket: \(warm.content)")
            return false
        }
        let retainHook = retainSlot.assumingMemoryBound(to: Retain.self)
        let retainNHook = retainNSlot.assumingMemoryBound(to: RetainN.self)
        retain = retainHook.pointee
        retainN = retainNHook.pointee
        retainHook.pointee = { object in
            LayoutCheck.retains += 1
            return LayoutCheck.retain!(object)
        }
        retainNHook.pointee = { object, n in
            LayoutCheck.retains += Int(n)
            return LayoutCheck.retainN!(object, n)
        }
        let flag = enable.assumingMemoryBound(to: Bool.self)
        flag.pointee = true
        let rounds = 100
        for _ in 0..<rounds { _ = decoder.decode(message.span) }
        flag.pointee = false
        retainHook.pointee = retain!
        retainNHook.pointee = retainN!
        let each = retains / rounds
        let ok = each <= budget
        print(
            "layout: decoding a system message with its ticket retains \(each) times (budget \(budget)): "
                + (ok ? "built in place" : "FAILED — a value is copied whole; see DeskMessage.decode"))
        return ok
    }
}
