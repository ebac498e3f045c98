/* optvalue.h — the values options take (counts, delays, pids, users, sizes, periods, times),
 * each parsed from its text with a message naming a bad one in err (the caller prints it and
 * exits with status 2). Pure code but for the user database lookup of a user name and the clock
 * that relative times are taken from. */
#ifndef DELAYTOP_OPTVALUE_H
#define DELAYTOP_OPTVALUE_H

#include <stddef.h>
#include <stdint.h>

#define MIN_DELAY 0.1
#define MAX_DELAY 86400.0
#define DEFAULT_DELAY 1.0
#define MIN_EXIT_BUFFER 4096.0
#define MAX_EXIT_BUFFER (1024.0 * 1024 * 1024)

/* Fills err with the message fmt makes; returns -1. */
int optvalue_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Each returns 0 with the value in *out, or -1 with a message naming s in err. */
/* -n: a whole number, at least 1. */
int optvalue_iterations(const char *s, long *out, char *err, size_t errlen);
/* A delay in seconds as -d takes it (also for the screen's prompt). */
int options_parse_delay(const char *s, double *out, char *err, size_t errlen);
/* A comma-separated pid list as -p takes it, appended to *pids. */
int options_parse_pids(const char *s, uint32_t **pids, size_t *n, char *err, size_t errlen);
/* A user name or uid as -u takes it. */
int options_parse_user(const char *s, uint32_t *uid, char *err, size_t errlen);
/* --exit-buffer: bytes, with a K, M or G. */
int optvalue_size(const char *s, int *out, char *err, size_t errlen);
/* --top-commands: a count. */
int optvalue_top_commands(const char *s, long *out, char *err, size_t errlen);
/* --series-expiry: seconds, 0 to SERIES_EXPIRY_MAX. */
#define SERIES_EXPIRY_MAX 86400
int optvalue_series_expiry(const char *s, double *out, char *err, size_t errlen);

/* --rotate: hour, day, or a number of seconds (ROTATE_SECONDS + the number). */
enum rotate { ROTATE_NONE, ROTATE_HOUR, ROTATE_DAY, ROTATE_SECONDS };

/* --rotate: hour, day or seconds, as enum rotate encodes them. */
int optvalue_rotate(const char *s, long *out, char *err, size_t errlen);
/* --keep: a number of files. */
int optvalue_keep(const char *s, unsigned *out, char *err, size_t errlen);
/* --capture: seconds. */
int optvalue_capture(const char *s, double *out, char *err, size_t errlen);
/* --begin, --end (name): a time (timeparse.h), ns since the epoch; *given is set. */
int optvalue_time(const char *s, const char *name, int64_t *out, int *given, char *err, size_t errlen);

#endif
