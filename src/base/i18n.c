/* i18n.c — checked translations of printf formats. */
#include "config.h"

#include <string.h>

#include "i18n.h"

#define I18N_MAX_ARGS 16

/* The kind of argument a conversion reads: 1 int, 2 unsigned, 3 double, 4 char, 5 string,
 * 6 pointer; 0 for %n and conversions delaytop does not use. */
static int conv_kind(char c)
{
	switch (c) {
	case 'd': case 'i': return 1;
	case 'o': case 'u': case 'x': case 'X': return 2;
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': return 3;
	case 'c': return 4;
	case 's': return 5;
	case 'p': return 6;
	default: return 0;
	}
}

/* The length modifier at *p as a number (0 for none), moving past it. */
static int length_kind(const char **p)
{
	static const char *const mods[] = { "hh", "h", "ll", "l", "L", "j", "z", "t" };

	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		size_t n = strlen(mods[i]);

		if (strncmp(*p, mods[i], n) == 0) {
			*p += n;
			return (int)i + 1;
		}
	}
	return 0;
}

/* A "N$" argument number at *p, moving past it; 0 when there is none. */
static int arg_number(const char **p)
{
	const char *q = *p;
	int n = 0;

	while (*q >= '0' && *q <= '9' && n <= I18N_MAX_ARGS)
		n = n * 10 + (*q++ - '0');
	if (q == *p || *q != '$' || n == 0)
		return 0;
	*p = q + 1;
	return n;
}

struct fmt_args {
	unsigned char kind[I18N_MAX_ARGS];
	int count, next, plain, numbered;
};

/* Records that the format reads argument pos (0: the next one) as kind; -1 when it conflicts. */
static int fmt_read(struct fmt_args *a, int pos, int kind)
{
	if (pos)
		a->numbered = 1;
	else {
		a->plain = 1;
		pos = ++a->next;
	}
	if ((a->plain && a->numbered) || pos > I18N_MAX_ARGS || (a->kind[pos - 1] && a->kind[pos - 1] != kind))
		return -1;
	a->kind[pos - 1] = (unsigned char)kind;
	if (pos > a->count)
		a->count = pos;
	return 0;
}

/* Fills a with the arguments the printf format f reads; -1 when f cannot be checked. */
static int fmt_parse(const char *f, struct fmt_args *a)
{
	memset(a, 0, sizeof(*a));
	while ((f = strchr(f, '%')) != NULL) {
		int pos, kind;

		if (*++f == '%') {
			f++;
			continue;
		}
		pos = arg_number(&f);
		while (*f && strchr("-+ #0'", *f))
			f++;
		for (int part = 0; part < 2; part++) { /* width, then precision */
			if (part == 1) {
				if (*f != '.')
					break;
				f++;
			}
			if (*f == '*') {
				f++;
				if (fmt_read(a, arg_number(&f), 1) < 0)
					return -1;
			}
			while (*f >= '0' && *f <= '9')
				f++;
		}
		kind = length_kind(&f) * 8;
		if (!conv_kind(*f))
			return -1;
		if (fmt_read(a, pos, kind + conv_kind(*f++)) < 0)
			return -1;
	}
	for (int i = 0; i < a->count; i++)
		if (!a->kind[i]) /* printf cannot skip an argument */
			return -1;
	return 0;
}

int i18n_same_args(const char *a, const char *b)
{
	struct fmt_args fa, fb;

	return fmt_parse(a, &fa) == 0 && fmt_parse(b, &fb) == 0 && fa.count == fb.count &&
	       memcmp(fa.kind, fb.kind, sizeof(fa.kind)) == 0;
}

const char *i18n_format(const char *msgid)
{
	const char *t = gettext(msgid);

	return t == msgid || i18n_same_args(msgid, t) ? t : msgid;
}
