// The clock a queue keeps (`ServiceClock`) comes with DeskKitJobs: a test that drives a queue names it.
@_exported import DeskKitTime
