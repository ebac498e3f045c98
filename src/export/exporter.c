/* exporter.c — the Prometheus endpoint, on libmicrohttpd's own thread, and a thread that cuts the
 * connections whose request outlived its deadline. */
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
#include "thread.h"
#include "webauth.h"
#include "xalloc.h"

/* Connections at once, and from one address: a connection over either limit is closed at once,
 * so that the kernel's listen queue never fills behind held connections. A connection silent for
 * CONNECTION_S seconds is dropped, and so is one whose request (from its connection, or from the
 * end of the previous response) is not answered within REQUEST_S, however it trickles; a request
 * whose headers outgrow CONNECTION_MEMORY is refused. */
#define CONNECTIONS 400
#define CONNECTIONS_PER_IP 8
#define CONNECTION_S 5
#define REQUEST_S 10
#define CONNECTION_MEMORY (16 * 1024)

enum exporter_reply exporter_route(const char *method, const char *url, const char *accept)
{
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return EXPORTER_BAD_METHOD;
	if (strcmp(url, "/metrics") == 0)
		return accept && strstr(accept, "application/openmetrics-text") ? EXPORTER_OPENMETRICS : EXPORTER_TEXT;
	if (strcmp(url, "/") == 0)
		return EXPORTER_INDEX;
	return EXPORTER_NOT_FOUND;
}

#ifdef HAVE_MICROHTTPD

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>

#include <microhttpd.h>

/* A connection, from its accept to its close, and when its current request began. */
struct conn {
	struct conn *prev, *next;
	int fd;
	struct timespec since;
	int cut; /* shut down for outliving REQUEST_S */
};

struct exporter {
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock;
	char *text[2]; /* the Prometheus text format, OpenMetrics */
	size_t len[2];
	char address[300];
	/* the connections, oldest first, and the thread that cuts the ones past REQUEST_S */
	pthread_mutex_t conns_lock;
	pthread_cond_t stop_cond;
	struct conn *first, *last;
	int stopping;
	pthread_t reaper;
	int reaping;
	struct web_auth *auth; /* --web-config's basic_auth_users, or NULL: everyone may read */
	int exposed;	       /* the address is not loopback */
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

/* /metrics: the latest exposition, in the format asked (om: OpenMetrics). */
static enum MHD_Result metrics_reply(struct exporter *e, struct MHD_Connection *c, int om)
{
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

/* The address a connection comes from, or NULL. */
static const struct sockaddr *client_address(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

	return info ? info->client_addr : NULL;
}

/* Basic auth's user and password, through the library's parser, checked against the users. The
 * 0.9.77 interface where there is one (the older one is deprecated there), which refuses a NUL
 * inside either; else 0.9.75's (Debian 12), whose C strings end at one: a password is then
 * checked up to its first NUL, which still needs the right password before it. */
#if MHD_VERSION >= 0x00097701
static int authorized(struct exporter *e, struct MHD_Connection *c)
{
	struct MHD_BasicAuthInfo *info = MHD_basic_auth_get_username_password3(c);
	int ok;

	if (!info)
		return 0;
	ok = info->password && strlen(info->username) == info->username_len &&
	     strlen(info->password) == info->password_len && webauth_check(e->auth, client_address(c), info->username,
								     info->password);
	if (info->password)
		explicit_bzero(info->password, info->password_len);
	MHD_free(info);
	return ok;
}
#define basic_auth_fail(c, realm, r) MHD_queue_basic_auth_required_response3(c, realm, MHD_YES, r)
#else
static int authorized(struct exporter *e, struct MHD_Connection *c)
{
	char *user, *password = NULL;
	int ok;

	user = MHD_basic_auth_get_username_password(c, &password);
	ok = user && password && webauth_check(e->auth, client_address(c), user, password);
	if (password) {
		explicit_bzero(password, strlen(password));
		MHD_free(password);
	}
	if (user)
		MHD_free(user);
	return ok;
}
#define basic_auth_fail(c, realm, r) MHD_queue_basic_auth_fail_response(c, realm, r)
#endif

/* 401, asking for basic auth. */
static enum MHD_Result refuse(struct MHD_Connection *c)
{
	static const char body[] = "401 Unauthorized: this endpoint asks for a user and password\n";
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	ret = basic_auth_fail(c, "delaytop", r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			      const char *version, const char *upload_data, size_t *upload_size, void **state)
{
	const char *accept;

	(void)version;
	(void)upload_data;
	(void)state;
	if (*upload_size) { /* a body nobody asked for: read and drop */
		*upload_size = 0;
		return MHD_YES;
	}
	if (((struct exporter *)cls)->auth && !authorized(cls, c))
		return refuse(c);
	accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	switch (exporter_route(method, url, accept)) {
	case EXPORTER_TEXT: return metrics_reply(cls, c, 0);
	case EXPORTER_OPENMETRICS: return metrics_reply(cls, c, 1);
	case EXPORTER_INDEX:
		return reply(c, MHD_HTTP_OK, "<html><body><a href=\"/metrics\">delaytop metrics</a></body></html>\n",
			     "text/html; charset=utf-8", NULL);
	case EXPORTER_BAD_METHOD:
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n", "text/plain; charset=utf-8",
			     "GET, HEAD");
	default: break;
	}
	return reply(c, MHD_HTTP_NOT_FOUND, "not found: the metrics are at /metrics\n", "text/plain; charset=utf-8",
		     NULL);
}

/* ---- the whole-request deadline ---- */

/* Tracks a connection from its accept (the library calls this before it closes the socket, so a
 * tracked fd is still the connection's while conns_lock is held). */
static void conn_notify(void *cls, struct MHD_Connection *c, void **ctx, enum MHD_ConnectionNotificationCode code)
{
	struct exporter *e = cls;
	struct conn *k = *ctx;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

		k = calloc(1, sizeof(*k));
		if (!k || !info) {
			free(k);
			return; /* untracked: the idle timeout still applies */
		}
		k->fd = info->connect_fd;
		clock_gettime(CLOCK_MONOTONIC, &k->since);
		pthread_mutex_lock(&e->conns_lock);
		k->prev = e->last;
		if (e->last)
			e->last->next = k;
		else
			e->first = k;
		e->last = k;
		pthread_mutex_unlock(&e->conns_lock);
		*ctx = k;
		return;
	}
	if (!k)
		return;
	pthread_mutex_lock(&e->conns_lock);
	if (k->prev)
		k->prev->next = k->next;
	else
		e->first = k->next;
	if (k->next)
		k->next->prev = k->prev;
	else
		e->last = k->prev;
	pthread_mutex_unlock(&e->conns_lock);
	free(k);
	*ctx = NULL;
}

/* A request answered: the connection's next one has REQUEST_S from now. */
static void request_done(void *cls, struct MHD_Connection *c, void **state, enum MHD_RequestTerminationCode code)
{
	struct exporter *e = cls;
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct conn *k = info ? info->socket_context : NULL;

	(void)state;
	(void)code;
	if (!k)
		return;
	pthread_mutex_lock(&e->conns_lock);
	clock_gettime(CLOCK_MONOTONIC, &k->since);
	pthread_mutex_unlock(&e->conns_lock);
}

static int64_t elapsed_ns(const struct timespec *from, const struct timespec *to)
{
	return (int64_t)(to->tv_sec - from->tv_sec) * 1000000000 + (to->tv_nsec - from->tv_nsec);
}

/* Four times a second, shuts down the connections whose request outlived REQUEST_S: the library then
 * reads the end of the stream and closes them. */
static void *reap(void *arg)
{
	struct exporter *e = arg;

	pthread_mutex_lock(&e->conns_lock);
	while (!e->stopping) {
		struct timespec now, wake;

		clock_gettime(CLOCK_MONOTONIC, &now);
		for (struct conn *k = e->first; k; k = k->next)
			if (!k->cut && elapsed_ns(&k->since, &now) >= (int64_t)REQUEST_S * 1000000000) {
				shutdown(k->fd, SHUT_RDWR);
				k->cut = 1;
			}
		wake = now; /* a quarter second on: a request is cut within REQUEST_S and 0.25 s */
		wake.tv_nsec += 250000000;
		if (wake.tv_nsec >= 1000000000) {
			wake.tv_sec++;
			wake.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&e->stop_cond, &e->conns_lock, &wake);
	}
	pthread_mutex_unlock(&e->conns_lock);
	return NULL;
}

static int reaper_start(struct exporter *e)
{
	pthread_condattr_t attr;

	pthread_mutex_init(&e->conns_lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&e->stop_cond, &attr);
	pthread_condattr_destroy(&attr);
	errno = -thread_start(&e->reaper, reap, e);
	e->reaping = errno == 0;
	return e->reaping ? 0 : -1;
}

static void reaper_stop(struct exporter *e)
{
	if (e->reaping) {
		pthread_mutex_lock(&e->conns_lock);
		e->stopping = 1;
		pthread_cond_signal(&e->stop_cond);
		pthread_mutex_unlock(&e->conns_lock);
		pthread_join(e->reaper, NULL);
	}
	pthread_cond_destroy(&e->stop_cond);
	pthread_mutex_destroy(&e->conns_lock);
}

static void exporter_free(struct exporter *e)
{
	webauth_free(e->auth);
	pthread_mutex_destroy(&e->lock);
	free(e->text[0]);
	free(e->text[1]);
	free(e);
}

/* CONNECTIONS, or fewer when the limit of open files would not leave delaytop 100 of its own. */
static unsigned connection_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= CONNECTIONS + 100)
		return CONNECTIONS;
	return rl.rlim_cur > 100 + 16 ? (unsigned)rl.rlim_cur - 100 : 16;
}

/* Whether the address is loopback: 127.0.0.0/8, ::1, or 127.0.0.0/8 mapped into IPv6. */
static int loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)(const void *)sa)->sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family == AF_INET6) {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;

		return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
	}
	return 0;
}

/* The library's poll loop (or select without poll), not epoll: with epoll (0.9.75) a connection
 * whose request and close arrived before its accept is not seen to close, and holds its place
 * until the idle timeout. With a certificate and key (wc), TLS through the library's GnuTLS. */
static struct MHD_Daemon *daemon_start(struct exporter *e, const struct addrinfo *ai, unsigned port,
				       const struct web_config *wc)
{
	unsigned poll = MHD_is_feature_supported(MHD_FEATURE_POLL) == MHD_YES ? MHD_USE_POLL : 0;
	int tls = wc && wc->cert_pem;
	struct MHD_OptionItem with_tls[] = {
		{ MHD_OPTION_HTTPS_MEM_KEY, 0, tls ? wc->key_pem : NULL },
		{ MHD_OPTION_HTTPS_MEM_CERT, 0, tls ? wc->cert_pem : NULL },
		{ MHD_OPTION_END, 0, NULL },
	};

	return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | poll | (tls ? MHD_USE_TLS : 0) |
					(ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0),
				(uint16_t)port, NULL, NULL, handle, e, MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				MHD_OPTION_CONNECTION_LIMIT, connection_limit(),
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)CONNECTIONS_PER_IP,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONNECTION_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
				MHD_OPTION_NOTIFY_CONNECTION, conn_notify, e, MHD_OPTION_NOTIFY_COMPLETED,
				request_done, e, MHD_OPTION_ARRAY, tls ? with_tls : with_tls + 2, MHD_OPTION_END);
}

int exporter_start(struct exporter **out, const char *host, unsigned port, const struct web_config *wc, char *err,
		   size_t errlen)
{
	struct addrinfo hints, *ai = NULL;
	struct exporter *e;
	char service[8];
	sigset_t old;
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(service, sizeof(service), "%u", port);
	if (wc && wc->cert_pem && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(err, errlen, "%s",
			 _("--web-config's tls_server_config needs libmicrohttpd built with TLS (GnuTLS), "
			   "which this one is not"));
		return -1;
	}
	rc = getaddrinfo(host, service, &hints, &ai);
	if (rc != 0) {
		snprintf(err, errlen, F_(N_("cannot listen on '%s': %s")), host, gai_strerror(rc));
		return -1;
	}
	e = xcalloc(1, sizeof(*e));
	pthread_mutex_init(&e->lock, NULL);
	snprintf(e->address, sizeof(e->address), ai->ai_family == AF_INET6 ? "[%s]:%u" : "%s:%u", host, port);
	e->exposed = !loopback(ai->ai_addr);
	e->auth = webauth_new(wc);
	errno = 0;
	if (reaper_start(e) == 0) {
		/* the library's threads inherit the mask: every signal blocked, as on every thread but
		 * main's */
		thread_signals_block(&old);
		e->daemon = daemon_start(e, ai, port, wc);
		thread_signals_restore(&old);
	}
	freeaddrinfo(ai);
	if (!e->daemon) {
		snprintf(err, errlen, F_(N_("cannot listen on %s: %s")), e->address,
			 errno ? strerror(errno)
			 : wc && wc->cert_pem
				 ? _("the HTTPS server did not start: are cert_file and key_file a certificate "
				     "and its own key?")
				 : _("the HTTP server did not start"));
		reaper_stop(e);
		exporter_free(e);
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

int exporter_exposed(const struct exporter *e)
{
	return e->exposed;
}

void exporter_stop(struct exporter *e)
{
	if (!e)
		return;
	MHD_stop_daemon(e->daemon);
	reaper_stop(e);
	exporter_free(e);
}

#else /* built without libmicrohttpd */

int exporter_start(struct exporter **out, const char *host, unsigned port, const struct web_config *wc, char *err,
		   size_t errlen)
{
	(void)out;
	(void)host;
	(void)port;
	(void)wc;
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

int exporter_exposed(const struct exporter *e)
{
	(void)e;
	return 0;
}

void exporter_stop(struct exporter *e)
{
	(void)e;
}

#endif
