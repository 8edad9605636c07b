// Tells ThreadSanitizer about the Swift standard library's `Mutex` on Linux, which it
// cannot see by itself: preloaded (LD_PRELOAD) by `scripts/sanitize thread` into every
// process of the run (docs/testing.md#sanitizers).
//
// `Synchronization.Mutex` locks and unlocks with an atomic compare-and-swap on its lock
// word, inlined into the caller: instrumented code, which TSan sees as an acquire and a
// release. But a contended lock is taken and given back by the kernel
// (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI, in `_MutexHandle._lockSlow()` and `_unlockSlow()` of
// libswiftSynchronization.so, which is not instrumented), and then TSan sees no
// synchronization at all: two threads that each touch a value only inside `withLock`
// are reported as a race as soon as they contend. This file wraps those two functions
// (and `_tryLockSlow()`) and tells TSan, as the Swift runtime does for its own locks
// (swiftlang/swift#66877): acquired on the lock word's address once the real slow path
// has the lock, released on it before the real slow path gives it back. The fast paths
// already acquire and release that same address, so both paths meet.
//
// In a process without TSan (the build tools, nginx, PostgreSQL...) it only forwards.
// `self`, the lock word's address, comes in the Swift context register (clang's
// `swift_context`, LLVM's swiftself: r13 on x86_64, x20 on arm64).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

typedef void __attribute__((swiftcall)) (*lock_slow_fn)(uint32_t, void *__attribute__((swift_context)));
typedef bool __attribute__((swiftcall)) (*try_lock_slow_fn)(void *__attribute__((swift_context)));
typedef void __attribute__((swiftcall)) (*unlock_slow_fn)(void *__attribute__((swift_context)));
typedef void (*tsan_fn)(void *);

// Looked up once, before any Swift code runs. The TSan functions are null in a process
// without TSan, the real ones in a process without the Swift library (never called).
static lock_slow_fn real_lock_slow;
static try_lock_slow_fn real_try_lock_slow;
static unlock_slow_fn real_unlock_slow;
static tsan_fn tsan_acquire, tsan_release;

__attribute__((constructor)) static void look_up(void) {
    real_lock_slow = (lock_slow_fn)dlsym(RTLD_NEXT, LOCK_SLOW);
    real_try_lock_slow = (try_lock_slow_fn)dlsym(RTLD_NEXT, TRY_LOCK_SLOW);
    real_unlock_slow = (unlock_slow_fn)dlsym(RTLD_NEXT, UNLOCK_SLOW);
    tsan_acquire = (tsan_fn)dlsym(RTLD_DEFAULT, "__tsan_acquire");
    tsan_release = (tsan_fn)dlsym(RTLD_DEFAULT, "__tsan_release");
}

#define EXPORTED __attribute__((swiftcall, visibility("default")))
#define SELF __attribute__((swift_context))

EXPORTED void lock_slow(uint32_t self_id, void *SELF handle) __asm__(LOCK_SLOW);
EXPORTED void lock_slow(uint32_t self_id, void *SELF handle) {
    real_lock_slow(self_id, handle);
    if (tsan_acquire != NULL) tsan_acquire(handle);
}

EXPORTED bool try_lock_slow(void *SELF handle) __asm__(TRY_LOCK_SLOW);
EXPORTED bool try_lock_slow(void *SELF handle) {
    bool locked = real_try_lock_slow(handle);
    if (locked && tsan_acquire != NULL) tsan_acquire(handle);
    return locked;
}

EXPORTED void unlock_slow(void *SELF handle) __asm__(UNLOCK_SLOW);
EXPORTED void unlock_slow(void *SELF handle) {
    if (tsan_release != NULL) tsan_release(handle);
    real_unlock_slow(handle);
}
