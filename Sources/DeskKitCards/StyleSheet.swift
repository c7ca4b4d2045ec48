extension ConversationPage {
    /// The page's style sheet: the two views, bubbles, cards (``CardHTML/styleSheet``), the inquiry's buttons, stars.
    public static let styleSheet =
        CardHTML.styleSheet + """
            body{margin:0;padding:16px;font:15px/1.4 system-ui,sans-serif;background:#f4f5f7;color:#1f2328}\
            h1{font-size:18px;margin:0 0 12px}h2{font-size:14px;text-transform:uppercase;letter-spacing:.05em;color:#57606a;margin:0 0 8px}\
            .views{display:flex;gap:16px;align-items:flex-start}\
            .view{flex:1;max-width:460px;background:#fff;border-radius:12px;padding:12px;box-shadow:0 1px 3px rgba(0,0,0,.12)}\
            .views:has(#customer:target) #agent,.views:has(#agent:target) #customer{display:none}\
            .chat{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:10px}\
            .message{display:flex;flex-direction:column;max-width:85%}.message.mine{align-self:flex-end;align-items:flex-end}\
            .meta{font-size:12px;color:#57606a;margin:0 4px 2px}.who{font-weight:600}\
            .bubble{background:#eef1f5;border-radius:14px;padding:8px 12px;overflow-wrap:anywhere}\
            .mine .bubble{background:#2563eb;color:#fff}.mine .bubble a{color:#fff}\
            .admin .bubble{background:#fff7e6}\
            .deskkit-card{margin-top:6px;width:300px}\
            .inquiry,.csat,.faq{margin-top:6px;display:flex;flex-wrap:wrap;gap:6px;align-items:center}\
            .answer{border:1px solid #2563eb;background:#fff;color:#2563eb;border-radius:16px;padding:4px 12px;font:inherit}\
            .answer.chosen{background:#2563eb;color:#fff}.answer:disabled:not(.chosen){opacity:.45}\
            .state{font-size:13px;color:#57606a;width:100%}.stars{font-size:22px;color:#f59e0b}\
            .faq{flex-direction:column;align-items:flex-start;padding-inline-start:18px}\
            .system,.notice{align-self:center;text-align:center;font-size:13px;color:#57606a;max-width:90%}\
            .system{background:#f6f8fa;border:1px dashed #d0d7de;border-radius:8px;padding:4px 8px}\
            .facts{display:block;font-size:11px}.closed{color:#1a7f37}\
            .note{font-size:12px;color:#9a6700;margin-top:4px}\
            .reply{margin-top:12px;border:1px solid #d0d7de;border-radius:18px;padding:8px 12px;color:#8c959f}
            """
}
