// uchardet, the encoding detector descended from Mozilla's universal charset detector (pkg-config
// `uchardet`, apt `libuchardet-dev`): used only when no declared encoding fits a page's bytes.
#ifndef DESKKIT_CUCHARDET_SHIM_H
#define DESKKIT_CUCHARDET_SHIM_H
#include <uchardet.h>
#endif
