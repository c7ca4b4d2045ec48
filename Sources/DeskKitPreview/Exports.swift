// What may be fetched, how, and how fetching fails (`FetchError`, `IPAddress`, `AddressPolicy`, `AcceptLanguage`)
// come with DeskKitPreview: one import for users of previews; so does the clock a fetcher and its cache count
// on (`ServiceClock`), which a test drives.
@_exported import DeskKitFetchPolicy
@_exported import DeskKitTime
