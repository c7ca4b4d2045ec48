// The job and its store are part of the server's API (`EnrichmentServer.queue`, `deskkit jobs`).
@_exported import DeskKitJobStore
