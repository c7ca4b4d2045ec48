// Parses JSON strictly, reads a member, and writes the value back as compact JSON.
import DeskKitJSON

let value = try JSONValue.parse(#"{"type": "NOTIFICATION_WELCOME", "ids": [1, 2.50]}"#)
print(value["type"]?.stringValue ?? "")  // NOTIFICATION_WELCOME
print(value.jsonString)  // {"type":"NOTIFICATION_WELCOME","ids":[1,2.50]}, numbers as written
