// Shares the preview cache between server instances through their PostgreSQL job store.
import DeskKitJobStore
import DeskKitPreview
import DeskKitSharedPreviews

let store = try await PostgresJobStore.open(PostgresLocation(parsing: "postgres://deskkit@db.internal/deskkit"))
let cache = try await PostgresPreviewCache.open(sharing: store)  // creates or migrates its own table
let previews = PreviewService(fetcher: PageFetcher(), sharedCache: cache)
