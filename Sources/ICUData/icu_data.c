// The ICU data of a static build: only what the agent uses (docs/architecture.md#binary-size).
//
// Foundation's ICU looks its data up through one symbol, `icudt<version>_dat`; defined
// here, the linker does not take the toolchain's package (34 MB: every locale, collation,
// converter and break rule) out of lib_FoundationICU.a. This one holds the time zones and
// the en_US_POSIX calendar data that named zones and date patterns need, 1.8 MB.
// `scripts/icu-data` writes icudt76l.dat from the toolchain's package and checks that
// dates format the same with it; after an update of ICU the symbol's name no longer
// matches, the full package is linked again and `scripts/build-release` says so.
// Shared builds (debug) do not use it: lib_FoundationICU.so keeps its own data.
#include "ICUData.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

_Alignas(16) const unsigned char icudt76_dat[] = {
#embed "data/icudt76l.dat"
};
