/* timeparse.h — a time as a person types it for --begin, --end and the replay's jump: absolute
 * ("2026-11-25 14:05", "14:05:30" today, "@1764079500" seconds since the epoch) or relative to
 * now ("10 minutes ago", "10m ago", "-10m", "now"), in local time. Pure code. */
#ifndef DELAYTOP_TIMEPARSE_H
#define DELAYTOP_TIMEPARSE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Parses s at now (ns since the epoch) into *out_ns. Returns 0, or -1 with what is wrong in err. */
int time_parse(const char *s, int64_t now_ns, int64_t *out_ns, char *err, size_t errlen);

/* The same, but a time of day alone ("14:05") is on the day of day_ns, not today's: the replay's
 * jump takes it on the day of the reading shown. */
int time_parse_on(const char *s, int64_t now_ns, int64_t day_ns, int64_t *out_ns, char *err, size_t errlen);

/* t (ns since the epoch) as "YYYY-MM-DD HH:MM:SS" in local time. */
void time_format(char *buf, size_t size, int64_t t_ns);

#endif
