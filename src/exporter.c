/* exporter.c — the Prometheus endpoint, on libmicrohttpd's own thread. */
#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exporter.h"
#include "format.h"
#include "i18n.h"
#include "metrics.h"

/* Scrapers at once; a slow or silent client is dropped after CONNECTION_S seconds; a request
 * whose headers outgrow CONNECTION_MEMORY is refused. */
#define CONNECTIONS 32
#define CONNECTIONS_PER_IP 16
#define CONNECTION_S 10
#define CONNECTION_MEMORY (32 * 1024)
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

int exporter_parse_listen(const char *spec, char *host, size_t hostsize, unsigned *port, char *err, size_t errlen)
{
	const char *colon = strrchr(spec, ':'), *p;
	size_t hostlen = 0;
	unsigned long v = 0;

	if (spec[0] == '[') { /* [IPV6]:PORT */
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':')
			return fail(err, errlen, F_(N_("invalid listen address '%s': expected [IPV6]:PORT")), spec);
		hostlen = (size_t)(close - spec - 1);
		memcpy(host, spec + 1, hostlen < hostsize ? hostlen : hostsize - 1);
		host[hostlen < hostsize ? hostlen : hostsize - 1] = '\0';
		p = close + 2;
	} else if (colon) {
		hostlen = (size_t)(colon - spec);
		if (memchr(spec, ':', hostlen))
			return fail(err, errlen, F_(N_("invalid listen address '%s': write an IPv6 address as [ADDRESS]:PORT")),
				    spec);
		snprintf(host, hostsize, "%.*s", (int)hostlen, spec);
		p = colon + 1;
	} else {
		host[0] = '\0';
		p = spec;
	}
	if (!host[0])
		snprintf(host, hostsize, "%s", DEFAULT_HOST);
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

#ifdef HAVE_MICROHTTPD

#include <pthread.h>
#include <sys/socket.h>

#include <microhttpd.h>

struct exporter {
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock;
	char *text[2]; /* the Prometheus text format, OpenMetrics */
	size_t len[2];
	char address[300];
};

/* A response with a short text body and its status. */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *body, const char *type,
			     const char *allow)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* /metrics: the latest exposition, as the Accept header asks. */
static enum MHD_Result metrics_reply(struct exporter *e, struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	int om = accept && strstr(accept, "application/openmetrics-text") != NULL;
	struct MHD_Response *r = NULL;
	enum MHD_Result ret;

	pthread_mutex_lock(&e->lock);
	if (e->text[om])
		r = MHD_create_response_from_buffer(e->len[om], e->text[om], MHD_RESPMEM_MUST_COPY);
	pthread_mutex_unlock(&e->lock);
	if (!r)
		return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "no reading yet\n", "text/plain; charset=utf-8", NULL);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, metrics_content_type(om));
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			      const char *version, const char *upload_data, size_t *upload_size, void **state)
{
	(void)version;
	(void)upload_data;
	(void)state;
	if (*upload_size) { /* a body nobody asked for: read and drop */
		*upload_size = 0;
		return MHD_YES;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n", "text/plain; charset=utf-8",
			     "GET, HEAD");
	if (strcmp(url, "/metrics") == 0)
		return metrics_reply(cls, c);
	if (strcmp(url, "/") == 0)
		return reply(c, MHD_HTTP_OK, "<html><body><a href=\"/metrics\">delaytop metrics</a></body></html>\n",
			     "text/html; charset=utf-8", NULL);
	return reply(c, MHD_HTTP_NOT_FOUND, "not found: the metrics are at /metrics\n", "text/plain; charset=utf-8",
		     NULL);
}

int exporter_start(struct exporter **out, const char *host, unsigned port, char *err, size_t errlen)
{
	struct addrinfo hints, *ai = NULL;
	struct exporter *e;
	char service[8];
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &ai);
	if (rc != 0) {
		snprintf(err, errlen, F_(N_("cannot listen on '%s': %s")), host, gai_strerror(rc));
		return -1;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		freeaddrinfo(ai);
		return -1;
	}
	pthread_mutex_init(&e->lock, NULL);
	snprintf(e->address, sizeof(e->address), ai->ai_family == AF_INET6 ? "[%s]:%u" : "%s:%u", host, port);
	errno = 0;
	e->daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO |
					     (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0),
				     (uint16_t)port, NULL, NULL, handle, e, MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				     MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONNECTIONS,
				     MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)CONNECTIONS_PER_IP,
				     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONNECTION_S,
				     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY, MHD_OPTION_END);
	freeaddrinfo(ai);
	if (!e->daemon) {
		snprintf(err, errlen, F_(N_("cannot listen on %s: %s")), e->address,
			 errno ? strerror(errno) : _("the HTTP server did not start"));
		pthread_mutex_destroy(&e->lock);
		free(e);
		return -1;
	}
	*out = e;
	return 0;
}

void exporter_publish(struct exporter *e, const char *text, size_t len, const char *om, size_t omlen)
{
	char *copy[2] = { malloc(len + 1), malloc(omlen + 1) }, *old[2];

	if (!copy[0] || !copy[1]) {
		free(copy[0]);
		free(copy[1]);
		return; /* scrapes keep the last one */
	}
	memcpy(copy[0], text, len);
	memcpy(copy[1], om, omlen);
	pthread_mutex_lock(&e->lock);
	old[0] = e->text[0];
	old[1] = e->text[1];
	e->text[0] = copy[0];
	e->text[1] = copy[1];
	e->len[0] = len;
	e->len[1] = omlen;
	pthread_mutex_unlock(&e->lock);
	free(old[0]);
	free(old[1]);
}

const char *exporter_address(const struct exporter *e)
{
	return e->address;
}

void exporter_stop(struct exporter *e)
{
	if (!e)
		return;
	MHD_stop_daemon(e->daemon);
	pthread_mutex_destroy(&e->lock);
	free(e->text[0]);
	free(e->text[1]);
	free(e);
}

#else /* built without libmicrohttpd */

int exporter_start(struct exporter **out, const char *host, unsigned port, char *err, size_t errlen)
{
	(void)out;
	(void)host;
	(void)port;
	snprintf(err, errlen, "%s", _("--listen needs libmicrohttpd, which this delaytop was built without"));
	return -1;
}

void exporter_publish(struct exporter *e, const char *text, size_t len, const char *om, size_t omlen)
{
	(void)e;
	(void)text;
	(void)len;
	(void)om;
	(void)omlen;
}

const char *exporter_address(const struct exporter *e)
{
	(void)e;
	return "";
}

void exporter_stop(struct exporter *e)
{
	(void)e;
}

#endif
