import ArgumentParser
import DeskKitSchemas

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of a format, or list them.",
        discussion: """
            The schemas (JSON Schema draft 2020-12) describe every Desk payload, the Desk message, Sendbird's \
            webhook, Pyrus's reply webhook and authorization request, and LiveTex's push. Their $ids start with \
            https://deskkit.dev/schemas/ and they refer to each other by relative $ref, so save them side by side \
            (for NAME in $(deskkit schema --list --names); do deskkit schema $NAME > $NAME.json; done). \
            `deskkit validate --format NAME` is the strict validation a schema equals; `deskkit serve` serves \
            them at /schemas/NAME.json.
            """
    )

    @Argument(help: "The schema to print (see --list).")
    var name: String?

    @Flag(name: .long, help: "List the schemas: name and title, one per line.")
    var list = false

    @Flag(name: .long, help: "With --list, print the names only.")
    var names = false

    func validate() throws {
        if list == (name != nil) { throw ValidationError("give a schema's NAME, or --list") }
        if names && !list { throw ValidationError("--names goes with --list") }
    }

    func run() throws {
        var out = Output.stdout()
        defer { out.flush() }
        if list {
            let width = DeskSchemas.all.map(\.name.count).max() ?? 0
            for schema in DeskSchemas.all {
                let padding = String(repeating: " ", count: width - schema.name.count)
                out.line(names ? schema.name : "\(schema.name)\(padding)  \(schema.title)")
            }
            return
        }
        guard let schema = DeskSchemas.named(name!) else {
            throw ValidationError(
                "no schema \"\(name!)\"; there are: \(DeskSchemas.all.map(\.name).joined(separator: ", "))")
        }
        var text = schema.text
        if text.hasSuffix("\n") { text.removeLast() }
        out.line(text)
    }
}
