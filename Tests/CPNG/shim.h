// libpng (pkg-config `libpng`, apt `libpng-dev`): the tests read the screenshots headless Chromium takes, to
// check where text lands on a card.
#ifndef DESKKIT_CPNG_SHIM_H
#define DESKKIT_CPNG_SHIM_H
#include <png.h>
#endif
