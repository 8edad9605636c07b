// The system's zlib (Debian's zlib1g-dev), which ContentDecoding inflates gzip and
// deflate bodies with (docs/architecture.md#layers).
#include <zlib.h>
