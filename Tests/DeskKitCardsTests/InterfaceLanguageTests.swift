import DeskKitCards
import Testing

/// The strings tables and what ICU writes for each language: every table whole, plural forms chosen by the
/// language's rules, numbers, sizes and times in its form, languages matched as clients ask for them.
@Suite("Interface languages")
struct InterfaceLanguageTests {
    @Test func everyTableHasEveryStringAndEveryPluralFormItsLanguageUses() throws {
        let english = try #require(InterfaceLanguage.available.first)
        #expect(english == .english)
        #expect(Set(InterfaceLanguage.available.map(\.tag)).isSuperset(of: ["en", "zh-Hans", "ru"]))
        #expect(InterfaceLanguage.available.count == InterfaceLanguage.tableTags.count)
        for language in InterfaceLanguage.available {
            let problems = language.tableProblems()
            #expect(problems.isEmpty, "\(language.tag): \(problems)")
        }
    }

    @Test func aTableMissingAKeyOrAFormIsReported() throws {
        let english = try #require(InterfaceLanguage.tableFile("en"))
        var broken = english.replacingOccurrences(of: #""reply.open": "Write a message…","#, with: "")
        #expect(InterfaceLanguage.problems(inTable: "en", json: broken).contains { $0.contains("reply.open") })
        broken = english.replacingOccurrences(of: #""one": "{count} star out of 5", "#, with: "")
        #expect(InterfaceLanguage.problems(inTable: "en", json: broken).contains { $0.contains("rating.stars") })
        broken = english.replacingOccurrences(of: "{count} stars out of 5", with: "{n} stars out of 5")
        #expect(InterfaceLanguage.problems(inTable: "en", json: broken).contains { $0.contains("{count}") })
        #expect(!InterfaceLanguage.problems(inTable: "en", json: "[1]").isEmpty)
    }

    @Test func pluralFormsFollowEachLanguagesRules() {
        let russian = InterfaceLanguage("ru")
        #expect(russian.text(.ratingStars, count: 1) == "1 звезда из 5")
        #expect(russian.text(.ratingStars, count: 3) == "3 звезды из 5")
        #expect(russian.text(.ratingStars, count: 5) == "5 звёзд из 5")
        #expect(russian.text(.demoEnriched, count: 21) == "обработано 21 сообщение")
        #expect(russian.text(.demoEnriched, count: 11) == "обработано 11 сообщений")
        #expect(InterfaceLanguage.english.text(.ratingStars, count: 1) == "1 star out of 5")
        #expect(InterfaceLanguage.english.text(.ratingStars, count: 4) == "4 stars out of 5")
        #expect(InterfaceLanguage("zh-Hans").text(.demoEnriched, count: 2) == "已处理 2 条消息")
        #expect(InterfaceLanguage("ar").text(.ratingStars, count: 2) == "نجمتان من 5")
        #expect(russian.pluralCategories == ["one", "few", "many", "other"])
    }

    @Test func numbersAndFileSizesAreWrittenAsTheLanguageWritesThem() {
        #expect(InterfaceLanguage.english.fileSize(3_000) == "3 KB")
        #expect(InterfaceLanguage("ru").fileSize(3_000) == "3 КБ")
        #expect(InterfaceLanguage("zh-Hans").fileSize(3_000) == "3 KB")
        #expect(InterfaceLanguage.english.fileSize(2_500_000) == "2.5 MB")
        #expect(InterfaceLanguage("ru").fileSize(2_500_000) == "2,5 МБ")
        #expect(InterfaceLanguage("de").fileSize(12_400_000_000) == "12,4 GB")
        #expect(InterfaceLanguage.english.fileSize(12_499) == "12 KB")
        #expect(InterfaceLanguage.english.fileSize(1) == "1 byte")
        #expect(InterfaceLanguage("ru").fileSize(22) == "22 байта")
        #expect(InterfaceLanguage.english.number(1_234_567) == "1,234,567")
        #expect(InterfaceLanguage("ru").number(1_234_567) == "1\u{A0}234\u{A0}567")
        #expect(InterfaceLanguage("de").number(1_234.5, maxFractionDigits: 1) == "1.234,5")
    }

    @Test func timesFollowTheLanguagesClock() {
        let afternoon: Int64 = 1_700_000_000_000  // 2023-11-14 22:13:20 UTC
        #expect(InterfaceLanguage.english.time(afternoon) == "10:13\u{202F}PM")
        #expect(InterfaceLanguage("ru").time(afternoon) == "22:13")
        #expect(InterfaceLanguage("zh-Hans").time(afternoon) == "22:13")
        #expect(InterfaceLanguage("ru").time(afternoon, timeZone: "Europe/Moscow") == "01:13")
        #expect(InterfaceLanguage("ru").dateTime(afternoon).contains("2023"))
        #expect(InterfaceLanguage("zh-Hans").dateTime(afternoon).contains("2023年11月14日"))
    }

    @Test func languagesAreMatchedAsClientsAskForThem() {
        #expect(InterfaceLanguage("ru-RU").tag == "ru")
        #expect(InterfaceLanguage("zh").tag == "zh-Hans")
        #expect(InterfaceLanguage("zh-CN").tag == "zh-Hans")
        #expect(InterfaceLanguage("ZH-hans-cn").tag == "zh-Hans")
        #expect(InterfaceLanguage.matching("zh-TW") == nil)  // Traditional: no table yet
        #expect(InterfaceLanguage("fr-CH, de;q=0.9, en;q=0.5").tag == "de")
        #expect(InterfaceLanguage("en;q=0.1, ru").tag == "ru")
        #expect(InterfaceLanguage("pt-BR").tag == "en")
        #expect(InterfaceLanguage("*").tag == "en")
        #expect(InterfaceLanguage("../../etc/passwd").tag == "en")
        #expect(InterfaceLanguage("").tag == "en")
        #expect(InterfaceLanguage("ar").isRightToLeft && InterfaceLanguage("ar").direction == "rtl")
        #expect(!InterfaceLanguage("ru").isRightToLeft && InterfaceLanguage("ru").direction == "ltr")
        #expect(InterfaceLanguage("ru").name == "Русский")
    }

    @Test func aValueIsNeverReadAsATemplate() {
        let text = InterfaceLanguage.english.text(.noPreview, ["link": "https://x.test/{reason}", "reason": "gone"])
        #expect(text == "no preview for https://x.test/{reason}: gone")
        #expect(InterfaceLanguage.english.text(.noPreview) == "no preview for {link}: {reason}")
    }
}
