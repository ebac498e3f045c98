/* listenaddr.c — --listen's value: the address and port the exporter serves. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "i18n.h"
#include "listenaddr.h"

#define DEFAULT_HOST "127.0.0.1"

static int fail(char *err, size_t errlen, const char *fmt, const char *value) __attribute__((format(printf, 3, 0)));

static int fail(char *err, size_t errlen, const char *fmt, const char *value)
{
	char shown[128];

	text_clean(shown, sizeof(shown), value);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(err, errlen, fmt, shown);
#pragma GCC diagnostic pop
	return -1;
}

int listenaddr_parse(const char *spec, char *host, size_t hostsize, unsigned *port, char *err, size_t errlen)
{
	const char *colon = strrchr(spec, ':'), *p;
	size_t hostlen = 0;
	unsigned long v = 0;

	if (spec[0] == '[') { /* [IPV6]:PORT */
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':')
			return fail(err, errlen, F_(N_("invalid listen address '%s': expected [IPV6]:PORT")), spec);
		hostlen = (size_t)(close - spec - 1);
		if (hostlen >= hostsize)
			return fail(err, errlen, F_(N_("invalid listen address '%s': the address is too long")), spec);
		memcpy(host, spec + 1, hostlen);
		host[hostlen] = '\0';
		p = close + 2;
	} else if (colon) {
		hostlen = (size_t)(colon - spec);
		if (memchr(spec, ':', hostlen))
			return fail(err, errlen, F_(N_("invalid listen address '%s': write an IPv6 address as [ADDRESS]:PORT")),
				    spec);
		if (hostlen >= hostsize)
			return fail(err, errlen, F_(N_("invalid listen address '%s': the address is too long")), spec);
		memcpy(host, spec, hostlen);
		host[hostlen] = '\0';
		p = colon + 1;
	} else {
		host[0] = '\0';
		p = spec;
	}
	if (!host[0] && strlen(DEFAULT_HOST) >= hostsize)
		return fail(err, errlen, F_(N_("invalid listen address '%s': the address is too long")), spec);
	if (!host[0])
		memcpy(host, DEFAULT_HOST, sizeof(DEFAULT_HOST));
	if (!*p || strspn(p, "0123456789") != strlen(p) || strlen(p) > 5)
		return fail(err, errlen, F_(N_("invalid listen address '%s': expected [ADDRESS:]PORT, a port of 1 to 65535")),
			    spec);
	v = strtoul(p, NULL, 10);
	if (v < 1 || v > 65535)
		return fail(err, errlen, F_(N_("invalid listen address '%s': expected [ADDRESS:]PORT, a port of 1 to 65535")),
			    spec);
	*port = (unsigned)v;
	return 0;
}
