#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CLibXML2

/// libxml2's process-wide state, set up once.
enum LibXML2 {
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    static func initialize() { _ = initialized }

    /// Encoding-conversion errors go to the thread's global handler, not the parser's: silence them.
    static func silenceErrors() {
        xmlSetStructuredErrorFunc(nil) { _, _ in }
    }

    /// Whether a start tag's attributes hide its element: `hidden`, `aria-hidden="true"`, or an inline
    /// style with `display: none` or `visibility: hidden`. One pass over the attributes.
    static func hides(_ list: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) -> Bool {
        guard let list else { return false }
        var i = 0
        while let name = list[i] {
            let value = list[i + 1]
            if xmlStrEqual(name, "hidden") != 0 { return true }
            if let value, xmlStrEqual(name, "aria-hidden") != 0, xmlStrcasecmp(value, "true") == 0 { return true }
            if let value, xmlStrEqual(name, "style") != 0 {
                let compact = String(cString: value).lowercased().filter { $0 != " " && $0 != "\t" }
                if compact.contains("display:none") || compact.contains("visibility:hidden") { return true }
            }
            i += 2
        }
        return false
    }

    /// The value of attribute `name` (lowercase) of a start tag, cut at `limit` bytes.
    static func attribute(_ name: String, in list: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, limit: Int) -> String? {
        guard let list else { return nil }
        var i = 0
        while let attributeName = list[i] {
            if name.utf8.elementsEqual(UnsafeBufferPointer(start: attributeName, count: strlen(UnsafeRawPointer(attributeName).assumingMemoryBound(to: CChar.self)))) {
                guard let value = list[i + 1] else { return "" }
                let length = strnlen(UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self), limit)
                return String(decoding: UnsafeBufferPointer(start: value, count: length), as: UTF8.self)
            }
            i += 2
        }
        return nil
    }
}
