/* test_exporter.c — what the exporter makes of a request (exporter_route: only GET and HEAD,
 * /metrics in the format the Accept header names, / a link, the rest 404) and of --listen's
 * value (listenaddr_parse: PORT, ADDRESS:PORT, [IPV6]:PORT; bad ports and addresses that
 * do not fit refused, never cut short). */
#include "config.h"

#include <string.h>

#include "exporter.h"
#include "listenaddr.h"
#include "tap.h"

/* listenaddr_parse into a host buffer of hostsize bytes: 0 and "HOST PORT", or -1 and err. */
static int parse(const char *spec, size_t hostsize, char *got, size_t gotsize)
{
	char host[300], err[512];
	unsigned port = 0;
	int rc;

	memset(host, 'x', sizeof(host));
	err[0] = '\0';
	rc = listenaddr_parse(spec, host, hostsize, &port, err, sizeof(err));
	if (rc == 0)
		snprintf(got, gotsize, "%s %u", host, port);
	else
		snprintf(got, gotsize, "%s", err);
	return rc;
}

int main(void)
{
	char got[600], long_spec[400];

	is_int(exporter_route("GET", "/metrics", NULL), EXPORTER_TEXT, "GET /metrics: the text format");
	is_int(exporter_route("HEAD", "/metrics", "text/plain"), EXPORTER_TEXT, "HEAD too");
	is_int(exporter_route("GET", "/metrics", "application/openmetrics-text; version=1.0.0"), EXPORTER_OPENMETRICS,
	       "OpenMetrics when Accept names it");
	is_int(exporter_route("GET", "/metrics", "text/plain;q=0.5,application/openmetrics-text;q=1"),
	       EXPORTER_OPENMETRICS, "among others");
	is_int(exporter_route("GET", "/", NULL), EXPORTER_INDEX, "/ is the index");
	is_int(exporter_route("GET", "/metrics/", NULL), EXPORTER_NOT_FOUND, "/metrics/ is not /metrics");
	is_int(exporter_route("GET", "/METRICS", NULL), EXPORTER_NOT_FOUND, "paths are exact");
	is_int(exporter_route("GET", "", NULL), EXPORTER_NOT_FOUND, "an empty path is 404");
	is_int(exporter_route("POST", "/metrics", NULL), EXPORTER_BAD_METHOD, "POST is 405");
	is_int(exporter_route("get", "/metrics", NULL), EXPORTER_BAD_METHOD, "methods are case-sensitive");
	is_int(exporter_route("", "/", ""), EXPORTER_BAD_METHOD, "no method is 405");

	ok(parse("9277", 256, got, sizeof(got)) == 0 && strcmp(got, "127.0.0.1 9277") == 0, "PORT: loopback (%s)",
	   got);
	ok(parse("0.0.0.0:1", 256, got, sizeof(got)) == 0 && strcmp(got, "0.0.0.0 1") == 0, "ADDRESS:PORT (%s)", got);
	ok(parse("[::1]:65535", 256, got, sizeof(got)) == 0 && strcmp(got, "::1 65535") == 0, "[IPV6]:PORT (%s)",
	   got);
	ok(parse(":80", 256, got, sizeof(got)) == 0 && strcmp(got, "127.0.0.1 80") == 0, ":PORT: loopback (%s)",
	   got);
	ok(parse("65536", 256, got, sizeof(got)) < 0 && strstr(got, "'65536'"), "port 65536 is refused (%s)", got);
	ok(parse("0", 256, got, sizeof(got)) < 0, "port 0 is refused");
	ok(parse("x:+80", 256, got, sizeof(got)) < 0, "a signed port is refused");
	ok(parse("::1:80", 256, got, sizeof(got)) < 0 && strstr(got, "[ADDRESS]:PORT"), "bare IPv6 is refused (%s)",
	   got);
	ok(parse("[::1]80", 256, got, sizeof(got)) < 0, "[IPV6] without :PORT is refused");
	memset(long_spec, 'a', 300);
	strcpy(long_spec + 300, ":80");
	ok(parse(long_spec, 256, got, sizeof(got)) < 0 && strstr(got, "too long"),
	   "an address longer than the buffer is refused, not cut short");
	ok(parse("[::1]:80", 3, got, sizeof(got)) < 0 && parse("[::]:80", 3, got, sizeof(got)) == 0 &&
		   strcmp(got, ":: 80") == 0,
	   "an address that just fits is taken (%s)", got);
	ok(parse("80", 9, got, sizeof(got)) < 0 && parse("80", 10, got, sizeof(got)) == 0,
	   "so is loopback, when it fits");
	return tap_done();
}
