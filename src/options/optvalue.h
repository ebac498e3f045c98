/* optvalue.h — the values options take, by the type their entry of the option table gives
 * (options.h): each read from its text, checked against the entry's bounds or choices and
 * refused with a message naming it in err (the caller prints it and exits with status 2), stored
 * where the entry says, and written back as the settings file holds it. Pure code but for the
 * user database lookup of a user name and the clock that relative times are taken from. */
#ifndef DELAYTOP_OPTVALUE_H
#define DELAYTOP_OPTVALUE_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"

#define MIN_DELAY 0.1
#define MAX_DELAY 86400.0
#define DEFAULT_DELAY 1.0
#define MIN_EXIT_BUFFER 4096.0
#define MAX_EXIT_BUFFER (1024.0 * 1024 * 1024)
/* --series-expiry: seconds, 0 to SERIES_EXPIRY_MAX. */
#define SERIES_EXPIRY_MAX 86400

/* --rotate: hour, day, or a number of seconds (ROTATE_SECONDS + the number). */
enum rotate { ROTATE_NONE, ROTATE_HOUR, ROTATE_DAY, ROTATE_SECONDS };

struct option_def;
struct options;

/* Fills err with the message fmt makes; returns -1. */
int optvalue_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Option d given with the value s (NULL for one that takes none) into *o, and the option it
 * implies. Returns 0, or -1 with a message naming s in err. */
int optvalue_take(const struct option_def *d, const char *s, struct options *o, char *err, size_t errlen);
/* A number, a choice's index or a column id v into d's place in *o (the table's defaults). */
void optvalue_store(const struct option_def *d, struct options *o, double v);
/* d's value in *o as the settings file writes it (yes or no for a flag), appended to out;
 * returns 0, or -1 and nothing when there is nothing to write (an empty list). */
int optvalue_format(const struct option_def *d, const struct options *o, struct outbuf *out);

/* The same checks for the screen's prompts: each returns 0 with the value in *out, or -1 with a
 * message naming s in err (and *out as it was). */
/* A delay in seconds as -d takes it. */
int optvalue_parse_delay(const char *s, double *out, char *err, size_t errlen);
/* A comma-separated pid list as -p takes it, appended to *pids. */
int optvalue_parse_pids(const char *s, uint32_t **pids, size_t *n, char *err, size_t errlen);
/* A user name or uid as -u takes it. */
int optvalue_parse_user(const char *s, uint32_t *uid, char *err, size_t errlen);

#endif
