// Logs (with ICU_LOG set) every item of ICU data that ICU opens: linked with
// --wrap=swift_udata_openChoice --wrap=swift_udata_open by scripts/icu-data.
#include <stdio.h>
#include <stdlib.h>
typedef struct UDataMemory UDataMemory;
typedef int UErrorCode;
typedef signed char UBool;
typedef UBool UDataMemoryIsAcceptable(void *context, const char *type, const char *name, const void *pInfo);
UDataMemory *__real_swift_udata_openChoice(const char *path, const char *type, const char *name, UDataMemoryIsAcceptable *isAcceptable, void *context, UErrorCode *pErrorCode);
UDataMemory *__wrap_swift_udata_openChoice(const char *path, const char *type, const char *name, UDataMemoryIsAcceptable *isAcceptable, void *context, UErrorCode *pErrorCode) {
    UDataMemory *r = __real_swift_udata_openChoice(path, type, name, isAcceptable, context, pErrorCode);
    if (getenv("ICU_LOG")) fprintf(stderr, "ICUOPEN choice path=%s type=%s name=%s -> %s err=%d\n", path ? path : "-", type ? type : "-", name ? name : "-", r ? "ok" : "MISSING", *pErrorCode);
    return r;
}
UDataMemory *__real_swift_udata_open(const char *path, const char *type, const char *name, UErrorCode *pErrorCode);
UDataMemory *__wrap_swift_udata_open(const char *path, const char *type, const char *name, UErrorCode *pErrorCode) {
    UDataMemory *r = __real_swift_udata_open(path, type, name, pErrorCode);
    if (getenv("ICU_LOG")) fprintf(stderr, "ICUOPEN open path=%s type=%s name=%s -> %s err=%d\n", path ? path : "-", type ? type : "-", name ? name : "-", r ? "ok" : "MISSING", *pErrorCode);
    return r;
}
