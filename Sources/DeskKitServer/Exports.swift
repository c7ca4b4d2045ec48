// The server's queue is DeskKitJobs' (its configuration, its retry strategy, its figures): whoever builds a
// server builds with them, so they come with it.
@_exported import DeskKitJobs
