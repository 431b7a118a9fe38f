/* CHECK and CHECK_STATUS for the C tests: count passes and failures, print each failure with its line. */
#pragma once

#include <stdio.h>

#include <facto/facto_experimental.h>

static int passed = 0, failed = 0;

#define CHECK(cond)                                                                \
    do {                                                                           \
        if (cond) {                                                                \
            ++passed;                                                              \
        } else {                                                                   \
            ++failed;                                                              \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                          \
    } while (0)

/* The call returns `want`, and an error comes with a nonempty message (from `message`). */
#define CHECK_STATUS(expr, want, message)                                                                   \
    do {                                                                                                    \
        const facto_status got_ = (expr);                                                                   \
        const char* msg_ = (message);                                                                       \
        if (got_ == (want) && (got_ >= 0 || (msg_ && msg_[0]))) {                                           \
            ++passed;                                                                                       \
        } else {                                                                                            \
            ++failed;                                                                                       \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s (message: '%s')\n", __FILE__, __LINE__, #expr, \
                    facto_status_string(got_), facto_status_string(want), msg_ ? msg_ : "(null)");           \
        }                                                                                                   \
    } while (0)
