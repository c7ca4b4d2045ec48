/// The words of pages that stand in for others — bot checks, consent and login forms, error pages, parked
/// domains, app shells — in English, Chinese, Russian, Japanese, German, Spanish and French (and a few in
/// Portuguese, Italian and Korean), as ``RefusalText/normalize(_:)`` leaves them: lowercase, straight
/// quotes, no trailing dots or ellipses.
///
/// A *title* is a whole part of a `<title>` (between separators: "Page not found | Shop") or a whole
/// heading; a *prefix* starts one; a *sentence* is anywhere in the page's first text, its headings or its
/// `<noscript>`. Titles are matched whole so that an article about logging in or a band called Not Found
/// keeps its card.
enum RefusalPhrases {
    // MARK: Bot checks

    static let challengeTitles: Set<String> = [
        // en
        "just a moment", "attention required", "access denied", "access to this page has been denied",
        "you have been blocked", "sorry, you have been blocked", "request blocked", "request rejected",
        "request unsuccessful", "robot check", "are you a robot", "are you a human", "security check",
        "security checkpoint", "checking your browser", "checking your browser before accessing", "one more step",
        "pardon our interruption", "human verification", "bot verification", "verify you are human",
        "verifying you are human", "making sure you're not a bot", "ddos-guard", "ddos protection by ddos-guard",
        "captcha challenge", "verification required", "browser check", "access blocked",
        "please verify you are a human", "you are being redirected",
        "sucuri website firewall - access denied", "access denied - sucuri website firewall", "are you human",
        "verify you are a human", "please verify you are human", "access to this page has been blocked",
        "robot or human", "bot or not", "human or robot", "whoa there, pardner",
        "error: the request could not be satisfied", "sina visitor system",
        // Cloudflare's "Just a moment..." as it is written in other languages
        "só um momento", "solo un momento", "een ogenblik", "chwileczkę", "bir dakika lütfen", "請稍候",
        // zh
        "请稍候", "安全验证", "人机验证", "访问验证", "验证码", "安全检查", "访问被拒绝", "滑动验证", "验证码拦截",
        "请完成安全验证", "拒绝访问", "禁止访问", "百度安全验证", "滑动验证页面", "安全验证中心",
        // ru
        "один момент", "проверка браузера", "доступ запрещен", "доступ запрещён", "вы не робот", "ой",
        "проверка безопасности", "подтвердите, что вы не робот", "доступ ограничен",
        // ja
        "しばらくお待ちください", "アクセスが拒否されました", "セキュリティチェック", "アクセスが制限されています",
        "ロボットではありません", "セキュリティ確認",
        // de
        "einen moment", "nur einen moment", "zugriff verweigert", "sicherheitsüberprüfung", "sicherheitsprüfung",
        "sicherheitsabfrage",
        // es
        "un momento", "acceso denegado", "verificación de seguridad", "comprobando su navegador",
        "verificación humana",
        // fr
        "un instant", "accès refusé", "vérification de sécurité", "accès interdit", "vérification humaine",
        // pt, it, ko
        "acesso negado", "accesso negato", "verifica di sicurezza", "잠시만 기다리십시오", "접근 거부",
    ]

    /// Bot checks' titles that say little alone ("Blocked", "Captcha"): a bot check on a page with little else
    /// to read. An article about captchas keeps its card.
    static let weakChallengeTitles: Set<String> = [
        "captcha", "blocked", "please wait", "robot", "verification", "one moment, please", "one moment please",
    ]

    /// Bot checks' titles that go on with the site's name ("Checking your browser before accessing shop.example").
    static let challengeTitlePrefixes: [String] = [
        "checking your browser", "checking if the site connection is secure", "verifying you are human",
        "please verify you are", "ddos protection by", "attention required", "security check required",
        "one more step", "please wait while we verify", "verifying your browser", "verifying your connection",
    ]

    static let challengeSentences: [String] = [
        // en
        "checking your browser before accessing", "checking if the site connection is secure",
        "verify you are human by completing", "verifying you are human", "unusual traffic from your computer network",
        "make sure you're not a robot", "not a robot", "enable javascript and cookies to continue",
        "please enable js and disable any ad blocker", "press & hold", "press and hold to confirm",
        "complete the security check to access", "why do i have to complete a captcha",
        "this process is automatic. your browser will redirect", "performance & security by cloudflare",
        "incapsula incident id", "the requested url was rejected. please consult with your administrator",
        "please enable javascript before you are allowed to see this page", "we believe you are using automation tools",
        "you don't have permission to access", "your request has been blocked", "automated access",
        "are you a robot", "confirm you are human", "human verification", "to continue, please verify",
        "sign in to confirm you're not a bot", "blocked by network security", "ddos protection by cloudflare",
        "current session has been terminated",
        "whoa there, pardner", "to discuss automated access to amazon data",
        "request blocked. we can't connect to the server",
        "your access to this site has been limited", "this request was blocked by the security rules",
        "has banned your ip address", "used cloudflare to restrict access", "you are being rate limited",
        "please wait for verification", "please wait while we verify", "please wait while we check your browser",
        "checking your browser", "verifying your browser", "browser verification", "verification in progress",
        "please stand by, while we are checking", "we are checking your browser",
        // zh
        "请完成安全验证", "检测到异常流量", "您的访问过于频繁", "请输入验证码", "拖动滑块", "访问过于频繁", "人机验证",
        // ru
        "подтвердите, что запросы отправляли вы, а не робот", "запросы с вашего устройства похожи на автоматические",
        "проверка браузера перед переходом", "вы не робот",
        // ja
        "ロボットではないことを確認", "アクセスが集中", "不正なアクセス",
        // de
        "bitte bestätigen sie, dass sie kein roboter sind", "ungewöhnlichen datenverkehr", "kein roboter",
        // es
        "tráfico inusual", "no eres un robot", "no soy un robot", "verifica que eres humano",
        // fr
        "trafic inhabituel", "vous n'êtes pas un robot", "je ne suis pas un robot", "vérifiez que vous êtes humain",
    ]

    // MARK: Consent walls

    static let consentTitles: Set<String> = [
        "before you continue", "cookie consent", "consent", "we value your privacy", "your privacy choices",
        "privacy consent", "manage cookies", "cookie settings",
        "zustimmung", "datenschutzeinstellungen", "cookie-einstellungen",
        "gestión de cookies", "consentimiento", "gestion des cookies", "consentement",
        "согласие на использование cookie",
        "cookie 设置", "cookie の設定",
    ]

    static let consentTitlePrefixes: [String] = [
        "before you continue to ", "bevor sie zu ", "avant d'accéder à ", "antes de ir a ", "прежде чем перейти ",
        "在继续访问", "继续访问", "prima di continuare", "antes de continuar", "voordat je verdergaat naar ",
        "zanim przejdziesz do ", "yahoo is part of the yahoo family", "yahoo ist teil der yahoo markenfamilie",
    ]

    /// Consent titles whose words close them, as Japanese, Korean and Chinese write "before you continue to
    /// Google" ("Google に移動する前に").
    static let consentTitleEndings: [String] = ["に移動する前に", "로 이동하기 전에", "之前"]

    static let consentSentences: [String] = [
        "we use cookies and data to deliver and maintain", "wir verwenden cookies und daten",
        "is part of the yahoo family of brands", "to continue, accept the use of cookies",
    ]

    // MARK: Login walls

    static let loginTitles: Set<String> = [
        // en
        "log in", "login", "log-in", "sign in", "signin", "sign-in", "sign up", "sign-up", "create account",
        "create an account", "log in or sign up", "sign in or sign up", "log in or create an account",
        "sign in or create an account", "member login", "user login", "account login", "login page",
        "sign in to your account", "log in to your account", "log into your account", "authentication required",
        "login required", "please log in", "please sign in", "sign in required", "welcome back", "join now",
        "log in or join", "sign in or join", "login or sign up", "sign up or log in", "sign up or sign in",
        // zh
        "登录", "登入", "用户登录", "账号登录", "账户登录", "登录页面", "请登录", "注册", "登录/注册", "登录 / 注册",
        "登錄", "會員登入",
        // ru
        "вход", "войти", "вход в аккаунт", "вход в систему", "авторизация", "регистрация", "вход на сайт",
        "войдите", "вход или регистрация", "войдите в аккаунт",
        // ja
        "ログイン", "サインイン", "ログインページ", "会員登録", "新規登録", "ログイン画面",
        // de
        "anmelden", "anmeldung", "einloggen", "registrieren", "bitte melden sie sich an", "anmelden oder registrieren",
        "einloggen oder registrieren",
        // es
        "iniciar sesión", "inicia sesión", "acceder", "entrar", "registrarse", "regístrate", "inicio de sesión",
        "iniciar sesión o registrarse", "inicia sesión o regístrate",
        // fr
        "connexion", "se connecter", "s'identifier", "identification", "inscription", "connectez-vous",
        "connexion ou inscription", "se connecter ou s'inscrire",
        // pt, it, ko
        "fazer login", "iniciar sessão", "accedi", "로그인", "entrar ou cadastrar-se", "faça login", "accedi o iscriviti",
        "accedi o registrati", "войти или зарегистрироваться", "ログイン・新規登録", "로그인 또는 가입",
        // tr, pl, nl, sv, cs, uk, id, vi, th, ar
        "giriş yap", "oturum aç", "zaloguj się", "logowanie", "inloggen", "aanmelden", "logga in",
        "přihlášení", "přihlásit se", "вхід", "увійти", "masuk", "đăng nhập", "เข้าสู่ระบบ", "تسجيل الدخول",
    ]

    static let loginTitlePrefixes: [String] = [
        "log in to ", "log into ", "login to ", "sign in to ", "sign into ", "sign up for ", "login on ",
        "log in on ", "anmelden bei ", "iniciar sesión en ", "inicia sesión en ", "connexion à ",
        "se connecter à ", "войти в ", "вход в ", "登录到", "にログイン",
    ]

    /// What a login wall says: in its first text, when a password field or a login form is there too; in its
    /// description or first words, when it has nothing else to show — and a description that says it is no
    /// description of the page (``RefusalCheck``). Invitations to sign in, not words about signing in ("how to log
    /// in", "if you cannot sign in").
    static let loginSentences: [String] = [
        "you must log in to continue", "log in to continue", "sign in to continue", "please log in to continue",
        "you need to log in", "log in to see", "sign in to see", "log in or sign up to", "must be logged in",
        "you need to sign in", "vous devez vous connecter", "connectez-vous pour", "sie müssen sich anmelden",
        "melden sie sich an, um", "debes iniciar sesión", "inicia sesión para", "необходимо войти", "войдите, чтобы",
        "请先登录", "登录后", "ログインしてください", "ログインが必要",
        // A network's invitation to a logged-out reader (a welcome, "welcome back", alone invites nothing).
        "sign in to check out", "log in to check out", "sign in to stay", "log in to stay", "sign up to see",
        "join to see", "log in to get started", "sign in to get started", "log in to start", "log into facebook to",
        "melde dich an", "melde dich bei", "melden sie sich bei", "bitte melde dich an", "connectez-vous à",
        "connectez-vous sur", "identifiez-vous", "inicia sesión en", "faça login", "faça o login", "entre para ver",
        "accedi per", "войдите в", "ログインして", "ログインすると", "登录查看", "로그인하고", "로그인하여",
        "create an account or log in", "create an account or sign in", "için giriş yap", "zaloguj się, aby",
        "log in om", "logga in för att", "přihlaste se", "увійдіть, щоб", "masuk untuk", "đăng nhập để",
        "เข้าสู่ระบบเพื่อ", "سجّل الدخول", "سجل الدخول",
    ]

    /// Path segments of a login page's address (`/login?next=…`, `/accounts/login/`, `/authwall`).
    static let loginPathSegments: Set<String> = [
        "login", "log-in", "signin", "sign-in", "sign_in", "logon", "authwall", "uas", "login.php", "signin.php",
        "login.aspx", "login.html", "login.jsp", "auth", "sso", "oauth", "authorize",
    ]

    /// Query parameters that say where a login or consent form sends the reader afterwards.
    static let returnParameters: Set<String> = [
        "next", "redirect", "redirect_url", "redirect_uri", "redirecturl", "return", "return_to", "returnto",
        "returnurl", "return_url", "continue", "dest", "destination", "url", "goto", "from", "back", "service",
        "session_redirect", "target", "came_from", "callback",
    ]

    static let consentPathSegments: Set<String> = [
        "consent", "cookie-consent", "cookieconsent", "zustimmung", "privacy-consent", "gdpr-consent", "cmp",
    ]

    // MARK: Error pages

    /// Error titles that need nothing more (HTTP's reason phrases are ``ReasonPhrases``, a standard's list).
    static let errorTitles: Set<String> = [
        // en
        "page not found", "file not found", "page cannot be found", "the page cannot be found",
        "page does not exist", "this page does not exist", "page not available", "this page isn't available",
        "sorry, this page isn't available", "this page is not available", "content not available",
        "this content isn't available", "this content isn't available right now", "page unavailable",
        "server error", "something went wrong",
        "oops! something went wrong", "oops, something went wrong", "we couldn't find that page",
        "page can't be found", "that page can't be found", "this page can't be found", "oops! that page can't be found",
        "sorry, we couldn't find that page", "we can't find that page", "sorry, we can't find that page",
        "the page you requested could not be found", "page no longer exists", "this page no longer exists",
        "the page you are looking for doesn't exist", "the page you're looking for doesn't exist",
        "the page you were looking for doesn't exist", "nothing found", "nothing was found", "page missing",
        "hmm...this page doesn't exist", "this account doesn't exist", "site not found", "error 404",
        "404 error", "error page", "the requested url was not found on this server", "requested page not found",
        "page not found (404)", "content unavailable", "video unavailable",
        // zh
        "pagina niet gevonden", "nie znaleziono strony", "strona nie została znaleziona", "sayfa bulunamadı",
        "找不到網頁", "页面不存在", "页面未找到", "找不到页面", "页面找不到了", "网页不存在", "页面不见了", "抱歉，您访问的页面不存在",
        "您访问的页面不存在", "抱歉，页面不存在", "服务器错误", "页面走丢了", "无法找到该页", "找不到网页", "頁面不存在",
        "找不到頁面",
        // ru
        "страница не найдена", "ошибка 404", "страница не существует", "запрашиваемая страница не найдена",
        "такой страницы нет", "страница не найдена (404)", "внутренняя ошибка сервера", "страница недоступна",
        // ja
        "ページが見つかりません", "お探しのページは見つかりませんでした", "ページが見つかりませんでした",
        "ページは存在しません", "指定されたページは存在しません", "お探しのページが見つかりません", "サーバーエラー",
        "ページが存在しません",
        // de
        "seite nicht gefunden", "fehler 404", "die seite wurde nicht gefunden", "seite existiert nicht",
        "die angeforderte seite wurde nicht gefunden", "serverfehler", "seite nicht verfügbar",
        "diese seite existiert nicht",
        // es
        "página no encontrada", "error 404", "página no existe", "la página no existe", "no se encontró la página",
        "error del servidor", "no encontrado", "página no disponible", "esta página no existe",
        // fr
        "page introuvable", "page non trouvée", "erreur 404", "la page demandée est introuvable",
        "cette page n'existe pas", "page inexistante", "erreur interne du serveur", "page non disponible",
        "la page que vous recherchez est introuvable",
        // pt, it, ko
        "página não encontrada", "pagina non trovata", "페이지를 찾을 수 없습니다",
    ]

    /// Maintenance and "back soon" titles and headings, in the interface's languages (and French): a site that is
    /// not there now. Words an article or a service page has too ("Maintenance | Example Cars"), so they decide only
    /// on a page with little to read that says so in its text too, or has next to nothing else.
    static let maintenanceTitles: Set<String> = [
        "maintenance", "site maintenance", "under maintenance", "down for maintenance", "scheduled maintenance",
        "maintenance mode", "we'll be back soon", "we will be back soon", "we'll be right back", "be right back",
        "back soon", "site under maintenance", "website under maintenance", "temporarily down for maintenance",
        "系统维护中", "网站维护中", "维护中", "系统维护", "网站正在维护", "正在维护", "我们很快回来",
        "технические работы", "ведутся технические работы", "сайт на техническом обслуживании",
        "сайт временно недоступен", "техническое обслуживание", "скоро вернёмся", "скоро вернемся",
        "メンテナンス中", "ただいまメンテナンス中です", "ただいまメンテナンス中", "システムメンテナンス中", "メンテナンスのお知らせ",
        "wartungsarbeiten", "wartungsmodus", "wir sind gleich wieder da", "wir sind bald wieder da",
        "wartungsarbeiten auf der website",
        "sitio en mantenimiento", "en mantenimiento", "estamos en mantenimiento", "volvemos pronto",
        "página en mantenimiento", "site en maintenance", "maintenance en cours", "nous revenons bientôt",
        "점검 중", "점검중", "서비스 점검 중입니다", "시스템 점검 중", "시스템 점검 중입니다", "서비스 점검 안내",
        "الموقع تحت الصيانة", "تحت الصيانة", "سنعود قريبا", "سنعود قريبًا", "الموقع قيد الصيانة",
    ]

    /// Error phrases that close a title without a separator ("Amazon.com Page Not Found").
    static let errorTitleEndings: [String] = [
        " page not found", " page cannot be found", " страница не найдена", "页面不存在", "ページが見つかりません",
        " seite nicht gefunden", " página no encontrada", " page introuvable", " 404 not found",
    ]

    /// Error titles that say little alone ("Error", "Oops"): an error page when its heading or code agree,
    /// or when the page has nothing else to say.
    static let weakErrorTitles: Set<String> = [
        "error", "oops", "oops!", "whoops", "whoops!", "uh oh", "sorry", "erreur", "fehler", "ошибка", "エラー", "错误",
        "错误页面", "error de página", "errore", "not available", "unavailable", "nicht gefunden", "http error",
        "error code", "erro",
    ]

    static let errorSentences: [String] = [
        "the requested url was not found on this server", "page you requested could not be found",
        "page you are looking for could not be found", "page you're looking for could not be found",
        "page you are looking for doesn't exist", "page you're looking for doesn't exist",
        "page you are looking for does not exist", "page you were looking for doesn't exist",
        "couldn't find the page you", "could not find the page you", "we couldn't find that page",
        "this page isn't available", "the link you followed may be broken", "page has been removed",
        "您访问的页面不存在", "页面不存在", "страница не найдена", "ページが見つかりません",
        "die angeforderte seite wurde nicht gefunden", "la página que buscas no existe",
        "la page que vous recherchez n'existe pas",
        // Maintenance.
        "performing some maintenance", "performing scheduled maintenance", "undergoing maintenance",
        "currently down for maintenance", "we'll be back online shortly", "we'll be back up shortly",
        "back online shortly", "down for scheduled maintenance",
        "ведутся технические работы", "проводятся технические работы", "正在进行系统维护", "系统维护中", "正在维护",
        "ただいまメンテナンス中", "メンテナンスを行っております", "메인터넌스", "점검을 진행하고 있습니다", "점검 중입니다",
        "estamos realizando tareas de mantenimiento", "estamos en mantenimiento", "wird gerade gewartet",
        "wartungsarbeiten durch", "نقوم حاليًا بأعمال صيانة", "نقوم حاليا بأعمال صيانة", "تحت الصيانة",
        "en cours de maintenance",
    ]

    /// `og:type`s (their start) of a page that is content of its own: an article, a product, a book, a video…
    static let contentOpenGraphTypes = [
        "article", "product", "book", "video", "music", "blog", "recipe", "og:product", "news", "profile",
    ]

    /// JSON-LD `@type`s of a page that is content of its own.
    static let contentJSONLDTypes: Set<String> = [
        "Article", "NewsArticle", "BlogPosting", "TechArticle", "ScholarlyArticle", "Report", "AnalysisNewsArticle",
        "OpinionNewsArticle", "ReportageNewsArticle", "LiveBlogPosting", "SocialMediaPosting",
        "DiscussionForumPosting", "HowTo", "FAQPage", "QAPage", "Question", "Product", "ProductGroup", "Recipe",
        "Review", "Course", "Book", "Movie", "VideoObject", "Event", "JobPosting", "SoftwareApplication",
    ]

    /// Path segments of an error page's address, when a redirect led there (`/404`, `/errors/not-found`).
    static let errorPathSegments: Set<String> = [
        "404", "404.html", "404.htm", "404.php", "404.aspx", "not-found", "notfound", "page-not-found",
        "pagenotfound", "error404", "error-404", "500.html", "50x.html",
    ]

    // MARK: Parked domains

    /// A parked page's sentence: a word for the domain and a word for its sale, in one language.
    static let parkedPairs: [(domain: [String], sale: [String])] = [
        (
            ["domain", "domain name", "this website", "this web site", "this site"],
            [
                "for sale", "available for purchase", "buy this domain", "make an offer", "is parked",
                "may be for sale",
                "get this domain", "inquire about this domain", "parked free", "is available for registration",
                "has expired", "domain expired", "parked", "is registered at", "may still be available",
            ]
        ),
        (["domain"], ["zum verkauf", "zu verkaufen", "kaufen", "geparkt", "reserviert"]),
        (
            ["dominio"],
            ["a la venta", "en venta", "se vende", "comprar este dominio", "à venda", "aparcado", "estacionado"]
        ),
        (["domaine"], ["à vendre", "en vente", "acheter ce", "parqué", "stationné"]),
        (["домен"], ["прода", "купить", "припаркован", "зарегистрирован"]),
        (["域名"], ["出售", "转让", "购买", "停放", "出讓"]),
        (["ドメイン"], ["販売", "売却", "売り出し", "購入", "取得されています"]),
    ]

    /// How parking services end a lander's title after the domain ("example.net - example Resources and
    /// Information."): with a word that reads as a domain in the same title.
    static let parkedTitleEndings = ["resources and information", "resources and information."]

    /// What follows the site's own name on a parked page ("example.com is for sale").
    static let siteForSale = [" is for sale", " may be for sale", " is available for purchase", " is parked"]

    // MARK: App shells

    /// The titles bundlers' templates ship with.
    static let shellTitles: Set<String> = [
        "react app", "vite app", "vite + react", "vite + react + ts", "vite + vue", "vite + vue + ts", "vite + svelte",
        "vite + svelte + ts", "vite + preact", "vite + preact + ts", "vite + lit", "vite + lit + ts", "vite + solid",
        "vite + solid + ts", "vite + ts", "vite + js", "vite + qwik", "create next app", "next.js", "nuxt",
        "nuxt app", "vue app", "angular", "angularapp", "myapp", "my app", "ionic app", "svelte app", "sveltekit",
        "document", "untitled", "untitled document", "loading", "app", "web app", "expo", "remix", "astro", "gatsby",
        "ember", "webpack app", "parcel", "new app", "home page", "index", "title", "welcome to your vue.js app",
        "welcome to react", "webapp",
    ]

    /// The descriptions bundlers' templates ship with: no description of the page's own.
    static let templateDescriptions: Set<String> = [
        "web site created using create-react-app", "a new flutter project", "generated by create next app",
        "generated by create-next-app", "welcome to remix", "a vite app", "an angular app", "ionic app",
    ]

    /// The notices pages show about the reader's browser: JavaScript off, an old browser, cookies, an ad
    /// blocker. The reason of no refusal: a page that says only this has no words of its own.
    static let browserNotices: [String] = [
        // en
        "enable javascript", "javascript is required", "javascript is disabled", "requires javascript",
        "javascript must be enabled", "without javascript", "turn on javascript", "javascript to run this app",
        "outdated browser", "upgrade your browser", "update your browser", "browser is not supported",
        "unsupported browser", "browser is out of date", "we use cookies", "this site uses cookies",
        "this website uses cookies", "accept cookies", "ad blocker", "adblocker", "disable your ad",
        // de, es, fr, ru, ja, zh
        "javascript aktivieren", "javascript ist deaktiviert", "veralteten browser", "activa javascript",
        "habilita javascript", "se requiere javascript", "necesita javascript", "navegador obsoleto",
        "activer javascript", "activez javascript", "javascript est désactivé", "navigateur obsolète",
        "включите javascript", "устаревший браузер", "javascriptを有効", "javascript が無効", "启用 javascript",
        "启用javascript", "浏览器版本过低",
    ]

    /// The ids of the elements app frameworks mount into.
    static let appRootIDs: [String] = [
        "root", "app", "__next", "__nuxt", "___gatsby", "svelte", "q-app", "react-root", "main-app", "app-root",
        "application", "ember-app", "vue-app", "react-app", "appmount", "app-mount", "sveltekit-body",
    ]
}
