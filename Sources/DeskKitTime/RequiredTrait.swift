// What this module is built on comes with the package trait "Previews" (on by default): without it, say so
// here rather than as a missing module further down.
#if !Previews
    #error("DeskKitTime needs the package trait Previews of DeskKit (on by default; off with traits: [])")
#endif
