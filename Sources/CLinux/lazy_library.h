#ifndef WAKE_LAZY_LIBRARY_H
#define WAKE_LAZY_LIBRARY_H
// A C library loaded with dlopen on first use, written once for libsndfile (CSndFile) and
// libsystemd (CSystemd), which include this file by its path. WAKE_LAZY_LIBRARY(prefix, soname,
// FUNCS) makes `prefix_functions` (a pointer per function FUNCS lists, with the library's own
// types), `prefix_storage()` (the one table) and `prefix_available()` (loads the library and
// every function once, thread-safe; 1 when all are there). The table lives in function-local
// statics: a static variable at file scope in a header is not emitted by Swift's importer,
// while a function's own statics are, with the function.
#include <dlfcn.h>
#include <pthread.h>

#define WAKE_LAZY_FIELD(n) __typeof__(n) *n;
#define WAKE_LAZY_LOAD(n) t->n = (__typeof__(n) *)wake_lazy_symbol(h, #n); if (!t->n) return;

/* A definition in the global scope comes first, as it would for a linked library: an
 * LD_PRELOAD interposer (a tracer, the benchmark's alsa_probe.c) still sees every call. Nothing
 * else there defines these names: the library itself is loaded RTLD_LOCAL. glibc's RTLD_DEFAULT,
 * which <dlfcn.h> declares only under _GNU_SOURCE. */
static inline void *wake_lazy_symbol(void *library, const char *name) {
    void *f = dlsym((void *)0, name);
    return f ? f : dlsym(library, name);
}

#define WAKE_LAZY_LIBRARY(prefix, soname, FUNCS) \
    typedef struct { FUNCS(WAKE_LAZY_FIELD) int loaded; } prefix##_functions; \
    static inline prefix##_functions *prefix##_storage(void) { \
        static prefix##_functions table; \
        return &table; \
    } \
    static inline void prefix##_load_once(void) { \
        prefix##_functions *t = prefix##_storage(); \
        void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL); \
        if (!h) return; \
        FUNCS(WAKE_LAZY_LOAD) \
        t->loaded = 1; \
    } \
    static inline int prefix##_available(void) { \
        static pthread_once_t once = PTHREAD_ONCE_INIT; \
        pthread_once(&once, prefix##_load_once); \
        return prefix##_storage()->loaded; \
    }
#endif
