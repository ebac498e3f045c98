/* listenaddr.h — --listen's value parsed, for the options' check and the exporter's start. Pure. */
#ifndef DELAYTOP_LISTENADDR_H
#define DELAYTOP_LISTENADDR_H

#include <stddef.h>

/* Parses --listen's value: PORT, ADDRESS:PORT or [IPV6]:PORT (a name is looked up). Without an
 * address, loopback. Returns 0, or -1 with a message naming the value in err (also when the
 * address does not fit in hostsize bytes: it is never cut short). */
int listenaddr_parse(const char *spec, char *host, size_t hostsize, unsigned *port, char *err, size_t errlen);

#endif
