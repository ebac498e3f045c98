/* tap.h — a few macros that print the Test Anything Protocol, for the C unit tests. */
#ifndef DELAYTOP_TAP_H
#define DELAYTOP_TAP_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

/* ok(condition, "what it proves", ...): one test point. */
#define ok(cond, ...)                                                                      \
	do {                                                                               \
		int tap_ok_ = !!(cond);                                                    \
		printf("%s %d - ", tap_ok_ ? "ok" : "not ok", ++tap_count);                \
		printf(__VA_ARGS__);                                                       \
		printf("\n");                                                              \
		if (!tap_ok_) {                                                            \
			tap_failed++;                                                      \
			printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond);        \
		}                                                                          \
	} while (0)

/* Equality with a message that says what was expected and what came. */
#define is_int(got, want, name)                                                            \
	do {                                                                               \
		long long tap_g_ = (long long)(got), tap_w_ = (long long)(want);           \
		ok(tap_g_ == tap_w_, "%s", name);                                          \
		if (tap_g_ != tap_w_)                                                      \
			printf("#   expected %lld, got %lld\n", tap_w_, tap_g_);              \
	} while (0)

#define is_num(got, want, eps, name)                                                       \
	do {                                                                               \
		double tap_g_ = (got), tap_w_ = (want);                                    \
		int tap_same_ = (isnan(tap_g_) && isnan(tap_w_)) || fabs(tap_g_ - tap_w_) <= (eps); \
		ok(tap_same_, "%s", name);                                                 \
		if (!tap_same_)                                                            \
			printf("#   expected %.6g, got %.6g\n", tap_w_, tap_g_);              \
	} while (0)

#define is_str(got, want, name)                                                            \
	do {                                                                               \
		const char *tap_g_ = (got), *tap_w_ = (want);                              \
		int tap_same_ = tap_g_ && tap_w_ && strcmp(tap_g_, tap_w_) == 0;           \
		ok(tap_same_, "%s", name);                                                 \
		if (!tap_same_)                                                            \
			printf("#   expected '%s', got '%s'\n", tap_w_ ? tap_w_ : "(null)",   \
			       tap_g_ ? tap_g_ : "(null)");                                \
	} while (0)

/* n test points that cannot run here, each "ok # SKIP why" (the TAP driver counts them as skips). */
static inline void tap_skip(int n, const char *why)
{
	for (int i = 0; i < n; i++)
		printf("ok %d # SKIP %s\n", ++tap_count, why);
}

/* Prints the plan; the exit status is non-zero when a test failed. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
