// What may be fetched and how fetching fails (`FetchError`, `IPAddress`, `AddressPolicy`) come with
// DeskKitPreview: one import for users of previews.
@_exported import DeskKitFetchPolicy
