// The parts of libxml2 DeskKit uses: the HTML push parser, SAX, errors and encodings.
#ifndef DESKKIT_CLIBXML2_SHIM_H
#define DESKKIT_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// libxml2's encoding.h includes the system ICU's headers when libxml2 was built with ICU (Debian's is).
// Foundation carries an ICU of its own (_FoundationICU), and clang refuses a Swift module that sees both
// definitions of ICU's types (`UErrorCode` has different definitions in different modules). DeskKit uses
// libxml2's encoding handlers only through pointers, and their ICU fields come last: Swift need not see them.
// (DeskKit's own ICU calls go through the C shim CICUFormat, whose header names no ICU type.)
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/encoding.h>
#endif
