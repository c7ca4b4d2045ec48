// What this module is built on comes with the package trait "Server" (on by default): without it, say so here
// rather than as a missing module further down.
#if !Server
    #error("DeskKitJobs needs the package trait Server of DeskKit (on by default; off with traits: [])")
#endif
