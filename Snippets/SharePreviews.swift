// Shares the preview cache between server instances through their PostgreSQL job store.
import DeskKitJobStore
import DeskKitPreview
import DeskKitSharedPreviews

let store = try await PostgresJobStore.open(PostgresLocation(parsing: "postgres://deskkit@db.internal/deskkit"))
let previews = PreviewService(fetcher: PageFetcher(), sharedCache: PostgresPreviewCache(sharing: store))
