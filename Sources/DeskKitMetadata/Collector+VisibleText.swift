// The body-text fallback: which text of the body is visible, and the first block of it that reads as prose.

extension Collector {
    /// Whether the first block of visible body text is still looked for: until it, or a paragraph that
    /// beats it, is found.
    var readsBodyText: Bool { headDone && !done && texts[.bodyText] == nil && texts[.firstP] == nil }

    func visibilityStart(_ tag: Tag, _ attributes: StartTagAttributes) {
        guard hiddenFrom == nil else { return }
        switch tag {
        case .a:
            linkDepth += 1
            return
        case .br:
            if readsBodyText, !block.isEmpty, block.count < limits.maxValueBytes { block.append(0x20) }
            return
        case .inline, .input, .img, .image, .meta, .link, .base:
            return
        case .hidden, .noscript, .form, .iframe, .script, .svg, .math, .title, .h1, .head, .textarea, .select:
            hiddenFrom = depth
        default:
            if attributes.hide { hiddenFrom = depth }
        }
        if readsBodyText { endBlock() }
    }

    func visibilityEnd(_ tag: Tag) {
        if let hidden = hiddenFrom {
            if depth <= hidden { hiddenFrom = nil }
            return
        }
        switch tag {
        case .a: linkDepth = max(0, linkDepth - 1)
        case .inline, .input, .br, .img, .image, .meta, .link, .base: break
        default: if readsBodyText { endBlock() }
        }
    }

    /// Ends the block being read: it is the fallback when it has a few words and is not mostly links.
    func endBlock() {
        defer {
            block.removeAll(keepingCapacity: true)
            blockLinkBytes = 0
        }
        guard !block.isEmpty, !Self.isMostlyLinks(blockLinkBytes, of: block.count) else { return }
        // On the bytes first, so that most blocks cost no String; again after CDATA is taken out.
        guard block.withUnsafeBufferPointer(TextCleaning.isSentenceLike) else { return }
        let text = TextCleaning.collapse(TextCleaning.removingCDATA(String(decoding: block, as: UTF8.self)))
        if text.utf8.withContiguousStorageIfAvailable(TextCleaning.isSentenceLike) == true, !isNotice(text) {
            texts[.bodyText] = text
        }
    }

    /// A paragraph or block that is a notice about the reader's browser ("Please enable JavaScript…", a cookie
    /// banner) is no description of the page — unless the page is about that (its title is such a notice too:
    /// "How to enable JavaScript").
    func isNotice(_ text: String) -> Bool {
        RefusalText.isBrowserNotice(text) && !RefusalText.isBrowserNotice(texts[.title])
    }

    /// Text of which links are 40 % or more: a menu, a list of tags, a language switcher.
    static func isMostlyLinks(_ linkBytes: Int, of bytes: Int) -> Bool { linkBytes * 5 >= bytes * 2 }
}
