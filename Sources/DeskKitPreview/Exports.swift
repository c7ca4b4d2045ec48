// What may be fetched, how, and how fetching fails (`FetchError`, `IPAddress`, `AddressPolicy`, `AcceptLanguage`)
// come with DeskKitPreview: one import for users of previews.
@_exported import DeskKitFetchPolicy
