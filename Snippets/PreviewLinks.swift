// Previews the links of a message through the safe fetcher and builds the rich message a client shows.
import DeskKitModel
import DeskKitPreview

// snippet.hide
let message = DeskMessage(json: #"{"type":"MESG","message":"see https://example.com/tracking/1138"}"#)
// snippet.show
let service = PreviewService()  // PageFetcher() with FetchConfiguration() inside
let text = message.text ?? ""
for preview in await service.previews(for: text) {  // the first 3 web links, fetched concurrently
    switch preview.result {
    case .success(let payload):  // a URLPreview
        let update = DeskPayload.message(.urlPreview(payload), text: text)  // custom_type SENDBIRD_DESK_RICH_MESSAGE
        print(update.json)
    case .failure(let error):  // never fails the message
        print(error.kind, error.detail)
    }
}
