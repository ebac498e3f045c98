/* exporter.h — the Prometheus endpoint: an HTTP server (libmicrohttpd) on one address that
 * serves /metrics, the latest completed reading's exposition, in the Prometheus text format or
 * in OpenMetrics when the scraper asks for it. A scrape never waits for a reading or triggers
 * one: the readings publish a finished exposition, and a scrape copies the latest. Connections
 * are bounded in number (in all and per address), memory (so in header size) and time (idle, and
 * a whole request however it trickles). */
#ifndef DELAYTOP_EXPORTER_H
#define DELAYTOP_EXPORTER_H

#include <stddef.h>

#include "webconfig.h"

struct exporter;

/* What a request gets, from its method, path and Accept header (NULL: none). */
enum exporter_reply {
	EXPORTER_TEXT,	      /* /metrics in the Prometheus text format */
	EXPORTER_OPENMETRICS, /* /metrics in OpenMetrics, when Accept names it */
	EXPORTER_INDEX,	      /* / : a link to /metrics */
	EXPORTER_NOT_FOUND,   /* 404 */
	EXPORTER_BAD_METHOD,  /* 405: only GET and HEAD */
};
enum exporter_reply exporter_route(const char *method, const char *url, const char *accept);

/* Starts serving on host:port, over TLS and asking for a user and password as wc says (NULL, or
 * a configuration without them: plain HTTP to anyone; wc must outlive the exporter). Returns 0,
 * or -1 with a message in err (no such address, the port is taken, the certificate or key
 * refused, TLS unavailable, or delaytop was built without libmicrohttpd). */
int exporter_start(struct exporter **out, const char *host, unsigned port, const struct web_config *wc, char *err,
		   size_t errlen);

/* Publishes a reading's exposition in both formats (copied). */
void exporter_publish(struct exporter *e, const char *text, size_t len, const char *om, size_t omlen);

/* The address it serves, "127.0.0.1:9277" or "[::1]:9277". */
const char *exporter_address(const struct exporter *e);

/* Whether the address it serves is not loopback (anyone who can reach it may connect). */
int exporter_exposed(const struct exporter *e);

void exporter_stop(struct exporter *e);

#endif
