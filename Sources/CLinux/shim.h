// Linux interfaces that Swift's Glibc module does not export.
#include <sys/signalfd.h>
#include <sys/timerfd.h>

// glibc declares memfd_create only under _GNU_SOURCE, which the Glibc module is built without.
int memfd_create(const char *name, unsigned int flags);
static const unsigned int WAKE_MFD_CLOEXEC = 1U;
