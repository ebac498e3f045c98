/* exporter.h — the Prometheus endpoint: an HTTP server (libmicrohttpd) on one address that
 * serves /metrics, the latest completed reading's exposition, in the Prometheus text format or
 * in OpenMetrics when the scraper asks for it. A scrape never waits for a reading or triggers
 * one: the readings publish a finished exposition, and a scrape copies the latest. Connections
 * are bounded in number, memory (so in header size) and time. */
#ifndef DELAYTOP_EXPORTER_H
#define DELAYTOP_EXPORTER_H

#include <stddef.h>

struct exporter;

/* Parses --listen's value: PORT, ADDRESS:PORT or [IPV6]:PORT (a name is looked up). Without an
 * address, loopback. Returns 0, or -1 with a message naming the value in err. */
int exporter_parse_listen(const char *spec, char *host, size_t hostsize, unsigned *port, char *err, size_t errlen);

/* Starts serving on host:port. Returns 0, or -1 with a message in err (no such address, the port
 * is taken, or delaytop was built without libmicrohttpd). */
int exporter_start(struct exporter **out, const char *host, unsigned port, char *err, size_t errlen);

/* Publishes a reading's exposition in both formats (copied). */
void exporter_publish(struct exporter *e, const char *text, size_t len, const char *om, size_t omlen);

/* The address it serves, "127.0.0.1:9277" or "[::1]:9277". */
const char *exporter_address(const struct exporter *e);

void exporter_stop(struct exporter *e);

#endif
