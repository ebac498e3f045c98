/* cgident.c — a cgroup's unit, container and pod, read from the components of its path: the
 * runtimes' patterns in one table, the pod's two layouts (systemd and cgroupfs drivers) in another. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cgident.h"

/* A component of a path: len bytes at s (not NUL-terminated). */
struct part {
	const char *s;
	size_t len;
};

/* What a container's pattern takes as the id. */
enum id_kind {
	ID_HEX64,   /* 64 lowercase hex digits */
	ID_NAME,    /* a name of letters, digits, '.', '_' and '-' */
	ID_ESCAPED, /* the same, systemd-escaped (\x2d for '-') */
};

/* Where a pattern's component must sit. */
enum under {
	UNDER_ANY,    /* anywhere */
	UNDER_PARENT, /* right below the component named parent */
	UNDER_POD,    /* right below a Kubernetes pod's cgroup */
};

/* One way a runtime names a container's cgroup: prefix, the id, suffix. */
struct runtime_pattern {
	const char *runtime; /* NULL: the path does not say which */
	const char *prefix, *suffix;
	enum under under;
	const char *parent; /* UNDER_PARENT's */
	enum id_kind id;
	int monitor; /* the runtime's monitor (conmon), not the container: names no container */
};

/* The patterns, tried in order on each component (a monitor's before its runtime's shorter
 * prefix). */
static const struct runtime_pattern patterns[] = {
	{ .runtime = "docker", .prefix = "docker-", .suffix = ".scope", .id = ID_HEX64 },
	{ .runtime = "docker", .prefix = "", .suffix = "", .under = UNDER_PARENT, .parent = "docker", .id = ID_HEX64 },
	{ .runtime = "containerd", .prefix = "cri-containerd-", .suffix = ".scope", .id = ID_HEX64 },
	{ .runtime = "cri-o", .prefix = "crio-conmon-", .suffix = ".scope", .id = ID_HEX64, .monitor = 1 },
	{ .runtime = "cri-o", .prefix = "crio-", .suffix = ".scope", .id = ID_HEX64 },
	{ .runtime = "cri-o", .prefix = "crio-", .suffix = "", .under = UNDER_POD, .id = ID_HEX64 },
	{ .runtime = "podman", .prefix = "libpod-conmon-", .suffix = ".scope", .id = ID_HEX64, .monitor = 1 },
	{ .runtime = "podman", .prefix = "libpod-", .suffix = ".scope", .id = ID_HEX64 },
	{ .runtime = "podman", .prefix = "libpod-", .suffix = "", .under = UNDER_PARENT, .parent = "libpod_parent",
	  .id = ID_HEX64 },
	{ .runtime = "lxc", .prefix = "lxc.monitor.", .suffix = "", .id = ID_NAME, .monitor = 1 },
	{ .runtime = "lxc", .prefix = "lxc.payload.", .suffix = "", .id = ID_NAME },
	{ .runtime = "lxc", .prefix = "", .suffix = "", .under = UNDER_PARENT, .parent = "lxc.payload", .id = ID_NAME },
	{ .runtime = "lxc", .prefix = "", .suffix = "", .under = UNDER_PARENT, .parent = "lxc", .id = ID_NAME },
	{ .runtime = "nspawn", .prefix = "machine-", .suffix = ".scope", .id = ID_ESCAPED },
	{ .runtime = NULL, .prefix = "", .suffix = "", .under = UNDER_POD, .id = ID_HEX64 },
};

/* A pod's QoS class: the end of its parent slice's name (systemd driver: the pod's slice is
 * "<that>-pod<UID with _>.slice") and its parent's name (cgroupfs driver: "<that>/pod<UID>",
 * guaranteed pods right below "kubepods"). */
static const struct {
	const char *slice, *dir, *qos;
} qos_classes[] = {
	{ .slice = "kubepods-burstable", .dir = "burstable", .qos = "burstable" },
	{ .slice = "kubepods-besteffort", .dir = "besteffort", .qos = "besteffort" },
	{ .slice = "kubepods", .dir = NULL, .qos = "guaranteed" },
};

/* The unit suffixes a cgroup may have, the slice last: it names the unit only without the others. */
static const char *const unit_suffixes[] = { ".service", ".scope", ".slice" };

static int part_is(struct part p, const char *s)
{
	return p.s && strlen(s) == p.len && memcmp(p.s, s, p.len) == 0;
}

static int starts(struct part p, const char *s)
{
	size_t n = strlen(s);

	return p.len >= n && memcmp(p.s, s, n) == 0;
}

static int ends(struct part p, const char *s)
{
	size_t n = strlen(s);

	return p.len >= n && memcmp(p.s + p.len - n, s, n) == 0;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static int is_hex64(struct part p)
{
	if (p.len != 64)
		return 0;
	for (size_t i = 0; i < p.len; i++)
		if (!is_hex(p.s[i]))
			return 0;
	return 1;
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
	       c == '-';
}

/* A name into out (size CGIDENT_NAME_MAX), undoing systemd's \xHH when escaped; 0, or -1 when
 * p is empty, too long, starts with '.' or has a byte a name may not. */
static int take_name(struct part p, int escaped, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < p.len; i++) {
		char c = p.s[i];

		if (escaped && c == '\\' && i + 3 < p.len && p.s[i + 1] == 'x' && is_hex(p.s[i + 2]) &&
		    is_hex(p.s[i + 3])) {
			static const char digits[] = "0123456789abcdef";

			c = (char)((strchr(digits, p.s[i + 2]) - digits) << 4 | (strchr(digits, p.s[i + 3]) - digits));
			i += 3;
		}
		if (!is_name_char(c) || o + 1 >= CGIDENT_NAME_MAX)
			return -1;
		out[o++] = c;
	}
	if (o == 0 || out[0] == '.')
		return -1;
	out[o] = '\0';
	return 0;
}

/* Whether p (len 36) is a pod's UID, 8-4-4-4-12 lowercase hex, with sep between the groups. */
static int is_uid(struct part p, char sep)
{
	if (p.len != CGIDENT_UID_LEN)
		return 0;
	for (size_t i = 0; i < p.len; i++)
		if (i == 8 || i == 13 || i == 18 || i == 23 ? p.s[i] != sep : !is_hex(p.s[i]))
			return 0;
	return 1;
}

static void take_uid(struct part p, char *out)
{
	for (size_t i = 0; i < p.len; i++)
		out[i] = p.s[i] == '_' ? '-' : p.s[i];
	out[p.len] = '\0';
}

/* A unit's name: letters, digits and ":-_.\@", a suffix of unit_suffixes and something before it. */
static int unit_kind(struct part p)
{
	for (size_t i = 0; i < p.len; i++)
		if (!is_name_char(p.s[i]) && p.s[i] != ':' && p.s[i] != '\\' && p.s[i] != '@')
			return -1;
	for (size_t k = 0; k < sizeof(unit_suffixes) / sizeof(unit_suffixes[0]); k++)
		if (ends(p, unit_suffixes[k]) && p.len > strlen(unit_suffixes[k]))
			return (int)k;
	return -1;
}

/* The QoS class of a pod whose cgroup is p below parent (and grand), or NULL when p is no pod's;
 * the UID into uid. */
static const char *pod_of(struct part p, struct part parent, struct part grand, char *uid)
{
	struct part name = { p.s, p.len }, id;

	if (ends(p, ".slice") && p.len > 6 + 4 + CGIDENT_UID_LEN) { /* systemd: <qos slice>-pod<UID_>.slice */
		name.len = p.len - 6;
		id = (struct part){ name.s + name.len - CGIDENT_UID_LEN, CGIDENT_UID_LEN };
		name.len -= CGIDENT_UID_LEN;
		if (!is_uid(id, '_') || !ends(name, "-pod"))
			return NULL;
		name.len -= 4;
		for (size_t i = 0; i < sizeof(qos_classes) / sizeof(qos_classes[0]); i++) {
			size_t n = strlen(qos_classes[i].slice);

			if (ends(name, qos_classes[i].slice) && (name.len == n || name.s[name.len - n - 1] == '-')) {
				take_uid(id, uid);
				return qos_classes[i].qos;
			}
		}
		return NULL;
	}
	id = (struct part){ p.s + 3, p.len - 3 };
	if (!starts(p, "pod") || !is_uid(id, '-')) /* cgroupfs: kubepods[/<qos>]/pod<UID> */
		return NULL;
	for (size_t i = 0; i < sizeof(qos_classes) / sizeof(qos_classes[0]); i++)
		if (qos_classes[i].dir ? part_is(parent, qos_classes[i].dir) && part_is(grand, "kubepods")
				       : part_is(parent, "kubepods")) {
			take_uid(id, uid);
			return qos_classes[i].qos;
		}
	return NULL;
}

/* Whether component p is a container's by pattern t (below parent; parent_pod: that is a pod's);
 * its id into out. */
static int container_of(const struct runtime_pattern *t, struct part p, struct part parent, int parent_pod,
			char *out)
{
	struct part id;

	if (t->under == UNDER_POD ? !parent_pod : t->under == UNDER_PARENT && !part_is(parent, t->parent))
		return 0;
	if (!starts(p, t->prefix) || !ends(p, t->suffix) || p.len < strlen(t->prefix) + strlen(t->suffix))
		return 0;
	id = (struct part){ p.s + strlen(t->prefix), p.len - strlen(t->prefix) - strlen(t->suffix) };
	if (t->id == ID_HEX64) {
		if (!is_hex64(id))
			return 0;
		memcpy(out, id.s, id.len);
		out[id.len] = '\0';
		return 1;
	}
	return take_name(id, t->id == ID_ESCAPED, out) == 0;
}

/* Component p below parent and grand: its unit, pod or container into id. Returns whether p is a pod's. */
static int take_part(struct part p, struct part parent, struct part grand, int parent_pod, struct cgident *id,
		     int *unit_rank)
{
	char name[CGIDENT_NAME_MAX];
	int kind = unit_kind(p);
	const char *qos;

	/* a service or a scope beats a slice, whatever the depth; among equals the innermost */
	if (kind >= 0 && p.len < CGIDENT_NAME_MAX && (kind < 2 || *unit_rank == 2)) {
		memcpy(id->unit, p.s, p.len);
		id->unit[p.len] = '\0';
		*unit_rank = kind < 2 ? 1 : 2;
	}
	qos = pod_of(p, parent, grand, id->pod_uid);
	if (qos) {
		id->qos = qos; /* a pod in a container: the pod says more */
		id->container[0] = '\0';
		id->runtime = NULL;
		return 1;
	}
	for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		if (!container_of(&patterns[i], p, parent, parent_pod, name))
			continue;
		if (!patterns[i].monitor) {
			memcpy(id->container, name, sizeof(name));
			id->runtime = patterns[i].runtime;
		}
		break;
	}
	return 0;
}

void cgident_parse(const char *path, struct cgident *id)
{
	struct part parent = { NULL, 0 }, grand = { NULL, 0 };
	int parent_pod = 0, unit_rank = 2; /* 2: none, or a slice, so far */

	memset(id, 0, sizeof(*id));
	while (path && *path) {
		struct part p = { path, strcspn(path, "/") };

		path += p.len + (path[p.len] == '/');
		if (p.len == 0)
			continue;
		parent_pod = take_part(p, parent, grand, parent_pod, id, &unit_rank);
		grand = parent;
		parent = p;
	}
}

int cgident_parse_new(const char *path, struct cgident *id)
{
	struct cgident up;
	char parent[CGIDENT_NAME_MAX * 4];
	size_t n = path ? strlen(path) : 0;
	int news = 0;

	cgident_parse(path, id);
	while (n > 0 && path[n - 1] == '/')
		n--;
	while (n > 0 && path[n - 1] != '/')
		n--;
	if (n >= sizeof(parent))
		return 0; /* too long to tell: nothing is new */
	memcpy(parent, path ? path : "", n);
	parent[n] = '\0';
	cgident_parse(parent, &up);
	if (id->container[0] && (strcmp(id->container, up.container) != 0 || id->runtime != up.runtime))
		news |= CGIDENT_NEW_CONTAINER;
	if (id->pod_uid[0] && strcmp(id->pod_uid, up.pod_uid) != 0)
		news |= CGIDENT_NEW_POD;
	return news;
}

const char *cgident_container_text(const struct cgident *id, char *buf, size_t size)
{
	int hex = is_hex64((struct part){ id->container, strlen(id->container) });

	if (!size)
		return buf;
	if (!id->container[0])
		buf[0] = '\0';
	else if (id->runtime)
		snprintf(buf, size, "%s:%.*s", id->runtime, hex ? 12 : (int)CGIDENT_NAME_MAX, id->container);
	else
		snprintf(buf, size, "%.*s", hex ? 12 : (int)CGIDENT_NAME_MAX, id->container);
	return buf;
}
