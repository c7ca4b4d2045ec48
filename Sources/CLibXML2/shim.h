// The parts of libxml2 DeskKit uses: the HTML push parser, SAX, errors and encodings.
#ifndef DESKKIT_CLIBXML2_SHIM_H
#define DESKKIT_CLIBXML2_SHIM_H
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/encoding.h>
#endif
