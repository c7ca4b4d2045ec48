// The JSON and bytes foundation is part of the model's API (`JSONValue`, `JSONWriter`, `Base64`…): a user
// who imports the model has it.
@_exported import DeskKitJSON
