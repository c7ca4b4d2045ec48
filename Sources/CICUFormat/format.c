#include "CICUFormat.h"

#include <string.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/uloc.h>
#include <unicode/unum.h>
#include <unicode/upluralrules.h>
#include <unicode/ustring.h>

enum { UNITS = 256 };

/// ICU's locale ID for a BCP 47 tag (`zh-Hans` → `zh_Hans`).
static int locale_id(const char *tag, char *id, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    uloc_forLanguageTag(tag, id, capacity, NULL, &status);
    return U_SUCCESS(status) && status != U_STRING_NOT_TERMINATED_WARNING;
}

static int32_t utf8(const UChar *text, int32_t length, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t written = 0;
    u_strToUTF8(out, capacity, &written, text, length, &status);
    if (U_FAILURE(status) || written >= capacity) return -1;
    return written;
}

int32_t deskkit_plural_category(const char *locale, double number, char *out, int32_t capacity) {
    char id[ULOC_FULLNAME_CAPACITY];
    if (!locale_id(locale, id, sizeof id)) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(id, &status);
    if (U_FAILURE(status)) return -1;
    UChar keyword[32];
    int32_t length = uplrules_select(rules, number, keyword, 32, &status);
    uplrules_close(rules);
    if (U_FAILURE(status)) return -1;
    return utf8(keyword, length, out, capacity);
}

int32_t deskkit_plural_categories(const char *locale, char *out, int32_t capacity) {
    char id[ULOC_FULLNAME_CAPACITY];
    if (!locale_id(locale, id, sizeof id)) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(id, &status);
    if (U_FAILURE(status)) return -1;
    UEnumeration *keywords = uplrules_getKeywords(rules, &status);
    int32_t used = 0;
    const char *keyword;
    int32_t length;
    while (U_SUCCESS(status) && (keyword = uenum_next(keywords, &length, &status)) != NULL) {
        if (used + length + 2 > capacity) { used = -1; break; }
        if (used > 0) out[used++] = ' ';
        memcpy(out + used, keyword, (size_t)length);
        used += length;
    }
    uenum_close(keywords);
    uplrules_close(rules);
    if (U_FAILURE(status) || used < 0) return -1;
    out[used] = 0;
    return used;
}

int32_t deskkit_format_number(const char *locale, double number, int32_t maxFractionDigits, char *out, int32_t capacity) {
    char id[ULOC_FULLNAME_CAPACITY];
    if (!locale_id(locale, id, sizeof id)) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormat *format = unum_open(UNUM_DECIMAL, NULL, 0, id, NULL, &status);
    if (U_FAILURE(status)) return -1;
    unum_setAttribute(format, UNUM_MAX_FRACTION_DIGITS, maxFractionDigits);
    UChar text[UNITS];
    int32_t length = unum_formatDouble(format, number, text, UNITS, NULL, &status);
    unum_close(format);
    if (U_FAILURE(status)) return -1;
    return utf8(text, length, out, capacity);
}

int32_t deskkit_date_pattern(const char *locale, const char *skeleton, char *out, int32_t capacity) {
    char id[ULOC_FULLNAME_CAPACITY];
    if (!locale_id(locale, id, sizeof id)) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UChar uskeleton[64], pattern[UNITS];
    u_strFromUTF8(uskeleton, 64, NULL, skeleton, -1, &status);
    if (U_FAILURE(status)) return -1;
    UDateTimePatternGenerator *generator = udatpg_open(id, &status);
    if (U_FAILURE(status)) return -1;
    int32_t length = udatpg_getBestPattern(generator, uskeleton, -1, pattern, UNITS, &status);
    udatpg_close(generator);
    if (U_FAILURE(status)) return -1;
    return utf8(pattern, length, out, capacity);
}

int32_t deskkit_format_date(const char *locale, double millis, const char *pattern, const char *zone, char *out, int32_t capacity) {
    char id[ULOC_FULLNAME_CAPACITY];
    if (!locale_id(locale, id, sizeof id)) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UChar upattern[UNITS], uzone[64], text[UNITS];
    int32_t patternLength = 0;
    u_strFromUTF8(upattern, UNITS, &patternLength, pattern, -1, &status);
    u_strFromUTF8(uzone, 64, NULL, zone, -1, &status);
    if (U_FAILURE(status)) return -1;
    UDateFormat *format = udat_open(UDAT_PATTERN, UDAT_PATTERN, id, uzone, -1, upattern, patternLength, &status);
    if (U_FAILURE(status)) return -1;
    int32_t length = udat_format(format, millis, text, UNITS, NULL, &status);
    udat_close(format);
    if (U_FAILURE(status)) return -1;
    return utf8(text, length, out, capacity);
}

int32_t deskkit_language_and_script(const char *tag, char *out, int32_t capacity) {
    char id[ULOC_FULLNAME_CAPACITY], full[ULOC_FULLNAME_CAPACITY], language[16], script[16];
    if (!locale_id(tag, id, sizeof id)) return -1;
    UErrorCode status = U_ZERO_ERROR;
    uloc_addLikelySubtags(id, full, sizeof full, &status);
    int32_t languageLength = uloc_getLanguage(full, language, sizeof language, &status);
    int32_t scriptLength = uloc_getScript(full, script, sizeof script, &status);
    if (U_FAILURE(status) || languageLength == 0 || languageLength + scriptLength + 2 > capacity) return -1;
    memcpy(out, language, (size_t)languageLength);
    int32_t used = languageLength;
    if (scriptLength > 0) {
        out[used++] = '-';
        memcpy(out + used, script, (size_t)scriptLength);
        used += scriptLength;
    }
    out[used] = 0;
    return used;
}

int32_t deskkit_is_right_to_left(const char *tag) {
    char id[ULOC_FULLNAME_CAPACITY];
    if (!locale_id(tag, id, sizeof id)) return 0;
    return uloc_isRightToLeft(id) ? 1 : 0;
}
