// The ICU data that static builds link instead of the toolchain's (icu_data.c,
// docs/architecture.md#binary-size). Nothing imports it: ICU finds it by its name.
#pragma once

extern const unsigned char icudt76_dat[];
