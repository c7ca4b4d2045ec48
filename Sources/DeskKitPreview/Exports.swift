// What may be fetched, how, and how fetching fails (`FetchError`, `SitePolicy`, `AddressPolicy`, `AcceptLanguage`)
// are named by DeskKitPreview's API (`FetchConfiguration`, `LinkPreview.result`) and live in a module of their own so
// that the fuzz targets build without SwiftNIO: they come with DeskKitPreview, one import for users of previews
// (DeskKitPreview.md, "Topics").
@_exported import DeskKitFetchPolicy
