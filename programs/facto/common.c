/* What every part of the command line uses: its clock, its error messages, a string test. */
#include <string.h>
#include <time.h>

#include "cli.h"
#include "group.h"

/* Seconds on a monotonic clock. */
double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A failed call's message on stderr (with the rank on several processes); returns 1. */
int fail(const char* what, facto_status status, const char* message)
{
    if (group_size() > 1) fprintf(stderr, "facto[rank %lld]: ", (long long)group_rank());
    else fprintf(stderr, "facto: ");
    fprintf(stderr, "%s: %s (%s)\n", what, message, facto_status_string(status));
    return 1;
}

/* Whether s ends with suffix. */
int ends_with(const char* s, const char* suffix)
{
    const size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}
