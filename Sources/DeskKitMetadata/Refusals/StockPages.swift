/// The stock pages web servers and hosting panels serve where no site is yet — nginx's and Apache's welcome pages,
/// IIS's, CentOS's, cPanel's and Plesk's default pages, a suspended account's, a host's "coming soon" placeholder —
/// by their titles as the software ships them, as ``RefusalText/normalize(_:)`` leaves them. A finite list (the
/// software's own templates), not a table of a wall's words: a page with little else titled so is a
/// `parked_domain`.
enum StockPages {
    static let placeholderTitles: Set<String> = [
        "welcome to nginx", "welcome to nginx!", "apache2 ubuntu default page: it works",
        "apache2 debian default page: it works", "test page for the apache http server",
        "test page for the nginx http server", "iis windows server", "iis windows", "it works", "it works!",
        "welcome to centos", "default web site page", "domain default page", "web server's default page",
        "default page", "account suspended", "future home of something quite cool", "coming soon",
        "website coming soon", "site under construction", "under construction",
    ]
}
