// ICU's plural rules, number and date formats for DeskKitCards' interface strings (apt `libicu-dev`, the ICU
// that libxml2 already links). A C file rather than a module map over ICU's headers: ICU renames every
// function with its version (`uplrules_open` is `uplrules_open_72`), through macros Swift cannot import.
//
// Every function writes UTF-8 into `out` (at most `capacity` bytes, NUL-terminated) and returns its length,
// or -1 when ICU fails (an unknown pattern, a buffer too small). Locales are BCP 47 tags (`zh-Hans`, `ru`).
#ifndef DESKKIT_CICUFORMAT_H
#define DESKKIT_CICUFORMAT_H
#include <stdint.h>

/// The CLDR plural category of `number` in `locale`: `zero`, `one`, `two`, `few`, `many` or `other`.
int32_t deskkit_plural_category(const char *locale, double number, char *out, int32_t capacity);

/// The plural categories `locale` uses, separated by spaces (`one few many other` for Russian).
int32_t deskkit_plural_categories(const char *locale, char *out, int32_t capacity);

/// `number` as `locale` writes it (digits, grouping, decimal sign), with at most `maxFractionDigits`.
int32_t deskkit_format_number(const char *locale, double number, int32_t maxFractionDigits, char *out, int32_t capacity);

/// `locale`'s date-time pattern for the skeleton `skeleton` (`jmm`: hours and minutes in the locale's clock,
/// `h:mm a` in English, `HH:mm` in Russian; `yMMMdjmm`: a date and time). Slow (it loads the locale's pattern
/// data): callers keep what it gives.
int32_t deskkit_date_pattern(const char *locale, const char *skeleton, char *out, int32_t capacity);

/// `millis` (since 1970, UTC) written with the date-time `pattern` (from `deskkit_date_pattern`) in `locale`,
/// in the time zone `zone` (an Olson ID or `UTC`).
int32_t deskkit_format_date(const char *locale, double millis, const char *pattern, const char *zone, char *out, int32_t capacity);

/// The language and script of `tag` with ICU's likely subtags filled in, as a BCP 47 tag (`zh-TW` →
/// `zh-Hant`, `zh` → `zh-Hans`, `ru-RU` → `ru-Cyrl`).
int32_t deskkit_language_and_script(const char *tag, char *out, int32_t capacity);

/// 1 when `tag`'s script is written right to left (Arabic, Hebrew), 0 otherwise.
int32_t deskkit_is_right_to_left(const char *tag);

#endif
