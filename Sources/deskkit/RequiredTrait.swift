// What this module is built on comes with the package trait "Command" (on by default): without it, say so here
// rather than as a missing module further down.
#if !Command
    #error("deskkit needs the package trait Command of DeskKit (on by default; off with traits: [])")
#endif
