/*
 * sqlite-faults: an LD_PRELOAD shim that makes the I/O of one SQLite database fail,
 * at chosen points and at random ones, for the fault test of the agent
 * (docs/testing.md#faults-under-sqlite).
 *
 * Built by the test itself, `cc -shared -fPIC -O2 -o libsqlite-faults.so sqlite-faults.c -ldl`,
 * so that nothing of it is linked into a product, and preloaded into `sync-agent run`:
 *
 *   LD_PRELOAD=/path/libsqlite-faults.so
 *   SQLITE_FAULTS_DB=/abs/path/sync-agent.db   the database: only the file descriptors
 *                                              opened on it or on its -wal, -shm and
 *                                              -journal files are touched
 *   SQLITE_FAULTS_CONTROL=/abs/path/control    the control file (below); without it
 *                                              the shim passes everything through
 *   SQLITE_FAULTS_SEED=S                       seeds the random points (default 1)
 *   SQLITE_FAULTS_RATE=R                       the chance, 0 to 1, that an I/O call on
 *                                              those files fails (default 0)
 *   SQLITE_FAULTS_KINDS=K,K                    the kinds that may be drawn (default all):
 *       eio-write    pwrite/write fails with EIO, nothing written
 *       enospc       pwrite/write fails with ENOSPC, nothing written
 *       short-write  pwrite/write writes half of its bytes and says so, and the next
 *                    write on that descriptor fails with ENOSPC: a disk filling up
 *       eio-fsync    fsync/fdatasync fails with EIO
 *       eio-read     pread/read fails with EIO
 *   SQLITE_FAULTS_AT=FILE:OP:N:KIND,...        chosen points: the Nth OP (write, read or
 *                                              sync) on FILE (db, wal, shm or journal)
 *                                              since faults were switched on fails with
 *                                              KIND (such as wal:write:3:eio-write)
 *
 * The control file is 4096 bytes, shared with the test through a mapping: 64-bit
 * little-endian words, the first two written by the test, the others by the shim.
 *   0  on: faults are injected only while it is not 0
 *   1  limit: no more faults once the total reaches it (0: no limit)
 *   2  faults injected in all
 *   3  by kind: eio-write, enospc, short-write, eio-fsync, eio-read (words 3 to 7)
 *   8  I/O calls seen on the database's files while on
 *   9  by file: db, wal, shm, journal (words 9 to 12)
 *
 * Debian's libsqlite3 calls open64, pread64, pwrite64, fdatasync and close through
 * its PLT, so these definitions, found first, are the ones it calls.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

enum { KIND_EIO_WRITE, KIND_ENOSPC, KIND_SHORT_WRITE, KIND_EIO_FSYNC, KIND_EIO_READ, KINDS };
enum { OP_WRITE, OP_READ, OP_SYNC, OPS };
enum { FILE_NONE, FILE_DB, FILE_WAL, FILE_SHM, FILE_JOURNAL, FILES };
enum { WORD_ON = 0, WORD_LIMIT = 1, WORD_TOTAL = 2, WORD_KINDS = 3, WORD_CALLS = 8, WORD_FILES = 9 };

static const char *const kind_names[KINDS] = {"eio-write", "enospc", "short-write", "eio-fsync", "eio-read"};
static const char *const op_names[OPS] = {"write", "read", "sync"};
static const char *const file_names[FILES] = {"", "db", "wal", "shm", "journal"};

#define MAX_FD 65536
#define MAX_POINTS 64

/* What each descriptor is: one of FILE_*, and whether its next write is to fail (after a short write). */
static unsigned char fd_file[MAX_FD];
static unsigned char fd_full[MAX_FD];

static char database[4096];
static size_t database_length;
static volatile uint64_t *control;
static uint64_t seed = 1;
static double rate;
static unsigned kinds_allowed = (1u << KINDS) - 1;
static uint64_t draws;
static uint64_t calls_of[FILES][OPS];

static struct point {
    int file, op, kind;
    uint64_t n;
} points[MAX_POINTS];
static int point_count;

static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_openat64)(int, const char *, int, ...);
static int (*real_close)(int);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off64_t);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_pread)(int, void *, size_t, off_t);
static ssize_t (*real_pread64)(int, void *, size_t, off64_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);

/* The C library's function `name`, looked up once. */
static void *resolve(void **slot, const char *name) {
    void *function = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!function) {
        function = dlsym(RTLD_NEXT, name);
        __atomic_store_n(slot, function, __ATOMIC_RELEASE);
    }
    return function;
}

#define RESOLVE(name) ((__typeof__(real_##name))resolve((void **)&real_##name, #name))

static int kind_named(const char *name, size_t length) {
    for (int k = 0; k < KINDS; k++)
        if (strlen(kind_names[k]) == length && strncmp(kind_names[k], name, length) == 0) return k;
    return -1;
}

static int index_named(const char *const *names, int count, const char *name, size_t length) {
    for (int i = 0; i < count; i++)
        if (strlen(names[i]) == length && strncmp(names[i], name, length) == 0) return i;
    return -1;
}

/* FILE:OP:N:KIND */
static void parse_point(const char *text, size_t length) {
    const char *end = text + length;
    const char *fields[4];
    size_t lengths[4];
    int field = 0;
    const char *start = text;
    for (const char *c = text; c <= end && field < 4; c++) {
        if (c == end || *c == ':') {
            fields[field] = start;
            lengths[field] = (size_t)(c - start);
            field++;
            start = c + 1;
        }
    }
    if (field != 4 || point_count == MAX_POINTS) return;
    struct point p;
    p.file = index_named(file_names, FILES, fields[0], lengths[0]);
    p.op = index_named(op_names, OPS, fields[1], lengths[1]);
    p.n = strtoull(fields[2], NULL, 10);
    p.kind = kind_named(fields[3], lengths[3]);
    if (p.file <= FILE_NONE || p.op < 0 || p.n == 0 || p.kind < 0) return;
    int fits = p.op == OP_WRITE ? p.kind <= KIND_SHORT_WRITE
                                : p.kind == (p.op == OP_SYNC ? KIND_EIO_FSYNC : KIND_EIO_READ);
    if (!fits) return;
    points[point_count++] = p;
}

__attribute__((constructor)) static void start(void) {
    const char *db = getenv("SQLITE_FAULTS_DB");
    const char *path = getenv("SQLITE_FAULTS_CONTROL");
    if (!db || !path || strlen(db) >= sizeof(database) - 16) return;
    strcpy(database, db);
    database_length = strlen(db);
    const char *text;
    if ((text = getenv("SQLITE_FAULTS_SEED"))) seed = strtoull(text, NULL, 10);
    if ((text = getenv("SQLITE_FAULTS_RATE"))) rate = strtod(text, NULL);
    if ((text = getenv("SQLITE_FAULTS_KINDS")) && *text) {
        kinds_allowed = 0;
        for (const char *c = text; *c;) {
            size_t length = strcspn(c, ",");
            int k = kind_named(c, length);
            if (k >= 0) kinds_allowed |= 1u << k;
            c += length + (c[length] == ',');
        }
    }
    if ((text = getenv("SQLITE_FAULTS_AT"))) {
        for (const char *c = text; *c;) {
            size_t length = strcspn(c, ",");
            parse_point(c, length);
            c += length + (c[length] == ',');
        }
    }
    int fd = RESOLVE(open)(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return;
    void *mapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    RESOLVE(close)(fd);
    if (mapped != MAP_FAILED) control = mapped;
}

/* Which of the database's files `path` is, if any. */
static int file_of(const char *path) {
    if (!database_length || !path || strncmp(path, database, database_length) != 0) return FILE_NONE;
    const char *rest = path + database_length;
    if (*rest == 0) return FILE_DB;
    if (strcmp(rest, "-wal") == 0) return FILE_WAL;
    if (strcmp(rest, "-shm") == 0) return FILE_SHM;
    if (strcmp(rest, "-journal") == 0) return FILE_JOURNAL;
    return FILE_NONE;
}

static void opened(int fd, const char *path) {
    if (fd < 0 || fd >= MAX_FD) return;
    fd_file[fd] = (unsigned char)file_of(path);
    fd_full[fd] = 0;
}

static int tracked(int fd) { return fd >= 0 && fd < MAX_FD && control ? fd_file[fd] : FILE_NONE; }

static uint64_t splitmix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Takes a fault of `kind` if the limit allows: counts it and returns the kind, else -1. */
static int take(int kind, int file) {
    uint64_t limit = __atomic_load_n(&control[WORD_LIMIT], __ATOMIC_RELAXED);
    uint64_t total = __atomic_load_n(&control[WORD_TOTAL], __ATOMIC_RELAXED);
    do {
        if (limit && total >= limit) return -1;
    } while (!__atomic_compare_exchange_n(
        &control[WORD_TOTAL], &total, total + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    __atomic_fetch_add(&control[WORD_KINDS + kind], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&control[WORD_FILES + file - 1], 1, __ATOMIC_RELAXED);
    return kind;
}

/* Whether the call `op` on a descriptor of `file` is to fail, and how: a KIND_* or -1. */
static int decide(int file, int op) {
    if (!__atomic_load_n(&control[WORD_ON], __ATOMIC_RELAXED)) return -1;
    __atomic_fetch_add(&control[WORD_CALLS], 1, __ATOMIC_RELAXED);
    uint64_t n = __atomic_add_fetch(&calls_of[file][op], 1, __ATOMIC_RELAXED);
    for (int i = 0; i < point_count; i++)
        if (points[i].file == file && points[i].op == op && points[i].n == n) return take(points[i].kind, file);
    if (rate <= 0) return -1;
    uint64_t draw = splitmix(seed ^ splitmix(__atomic_add_fetch(&draws, 1, __ATOMIC_RELAXED)));
    if ((double)(draw >> 11) / 9007199254740992.0 >= rate) return -1;
    int candidates[KINDS], count = 0;
    if (op == OP_WRITE) {
        for (int k = KIND_EIO_WRITE; k <= KIND_SHORT_WRITE; k++)
            if (kinds_allowed & (1u << k)) candidates[count++] = k;
    } else {
        int k = op == OP_SYNC ? KIND_EIO_FSYNC : KIND_EIO_READ;
        if (kinds_allowed & (1u << k)) candidates[count++] = k;
    }
    if (count == 0) return -1;
    return take(candidates[splitmix(draw) % (uint64_t)count], file);
}

static ssize_t fail(int error) {
    errno = error;
    return -1;
}

/* A write of `count` bytes: done by `half(bytes)` for a short write. */
#define WRITE_BODY(fd, count, whole, half)                                      \
    do {                                                                        \
        int file = tracked(fd);                                                 \
        if (file) {                                                             \
            if (fd_full[fd]) {                                                  \
                fd_full[fd] = 0;                                                \
                return fail(ENOSPC);                                            \
            }                                                                   \
            switch (decide(file, OP_WRITE)) {                                   \
            case KIND_EIO_WRITE: return fail(EIO);                              \
            case KIND_ENOSPC: return fail(ENOSPC);                              \
            case KIND_SHORT_WRITE: {                                            \
                if (count < 2) return 0;                                        \
                ssize_t written = half(count / 2);                              \
                if (written > 0) fd_full[fd] = 1;                               \
                return written;                                                 \
            }                                                                   \
            default: break;                                                     \
            }                                                                   \
        }                                                                       \
        return whole;                                                           \
    } while (0)

#define READ_BODY(fd, whole)                                                    \
    do {                                                                        \
        int file = tracked(fd);                                                 \
        if (file && decide(file, OP_READ) == KIND_EIO_READ) return fail(EIO);   \
        return whole;                                                           \
    } while (0)

static mode_t mode_of(int flags, va_list arguments) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(arguments, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_of(flags, arguments);
    va_end(arguments);
    int fd = RESOLVE(open)(path, flags, mode);
    opened(fd, path);
    return fd;
}

int open64(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_of(flags, arguments);
    va_end(arguments);
    int fd = RESOLVE(open64)(path, flags, mode);
    opened(fd, path);
    return fd;
}

int openat(int folder, const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_of(flags, arguments);
    va_end(arguments);
    int fd = RESOLVE(openat)(folder, path, flags, mode);
    opened(fd, path[0] == '/' ? path : NULL);
    return fd;
}

int openat64(int folder, const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_of(flags, arguments);
    va_end(arguments);
    int fd = RESOLVE(openat64)(folder, path, flags, mode);
    opened(fd, path[0] == '/' ? path : NULL);
    return fd;
}

int close(int fd) {
    if (fd >= 0 && fd < MAX_FD) {
        fd_file[fd] = FILE_NONE;
        fd_full[fd] = 0;
    }
    return RESOLVE(close)(fd);
}

ssize_t write(int fd, const void *bytes, size_t count) {
#define HALF(n) RESOLVE(write)(fd, bytes, n)
    WRITE_BODY(fd, count, RESOLVE(write)(fd, bytes, count), HALF);
#undef HALF
}

ssize_t pwrite(int fd, const void *bytes, size_t count, off_t offset) {
#define HALF(n) RESOLVE(pwrite)(fd, bytes, n, offset)
    WRITE_BODY(fd, count, RESOLVE(pwrite)(fd, bytes, count, offset), HALF);
#undef HALF
}

ssize_t pwrite64(int fd, const void *bytes, size_t count, off64_t offset) {
#define HALF(n) RESOLVE(pwrite64)(fd, bytes, n, offset)
    WRITE_BODY(fd, count, RESOLVE(pwrite64)(fd, bytes, count, offset), HALF);
#undef HALF
}

ssize_t read(int fd, void *bytes, size_t count) { READ_BODY(fd, RESOLVE(read)(fd, bytes, count)); }

ssize_t pread(int fd, void *bytes, size_t count, off_t offset) {
    READ_BODY(fd, RESOLVE(pread)(fd, bytes, count, offset));
}

ssize_t pread64(int fd, void *bytes, size_t count, off64_t offset) {
    READ_BODY(fd, RESOLVE(pread64)(fd, bytes, count, offset));
}

int fsync(int fd) {
    int file = tracked(fd);
    if (file && decide(file, OP_SYNC) == KIND_EIO_FSYNC) return (int)fail(EIO);
    return RESOLVE(fsync)(fd);
}

int fdatasync(int fd) {
    int file = tracked(fd);
    if (file && decide(file, OP_SYNC) == KIND_EIO_FSYNC) return (int)fail(EIO);
    return RESOLVE(fdatasync)(fd);
}
