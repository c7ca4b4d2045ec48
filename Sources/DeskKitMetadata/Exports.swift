// A refusal is a `FetchError` (`RefusalCheck.refusal(of:response:)`), whose module has no product of its own (it is
// apart so that the fuzz targets build without SwiftNIO): it comes with DeskKitMetadata (DeskKitMetadata.md).
@_exported import DeskKitFetchPolicy
