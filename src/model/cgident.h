/* cgident.h — what a cgroup is, named from its path alone (no daemon asked): the systemd unit, the
 * container (its runtime and id, or name) and the Kubernetes pod (its UID and QoS class). The
 * runtimes' path patterns are one table in cgident.c. The same for a v2 path and a v1 one (the
 * hierarchies' paths have the same shape). Pure. */
#ifndef DELAYTOP_CGIDENT_H
#define DELAYTOP_CGIDENT_H

#include <stddef.h>

#define CGIDENT_NAME_MAX 256
#define CGIDENT_UID_LEN 36 /* a pod's UID, 8-4-4-4-12 lowercase hex with dashes */

/* What a cgroup's path says it is; every part may be unknown. */
struct cgident {
	/* the innermost service or scope unit of the path, else its innermost slice; "" when none
	 * (as systemd names it: escapes such as \x2d kept) */
	char unit[CGIDENT_NAME_MAX];
	/* the innermost container: its runtime ("docker", "containerd", "cri-o", "podman", "lxc",
	 * "nspawn"; NULL when the path does not say, as under a pod of the cgroupfs driver) and its
	 * id (64 lowercase hex) or name (lxc, nspawn: unescaped); container "" when none */
	const char *runtime;
	char container[CGIDENT_NAME_MAX];
	/* the innermost Kubernetes pod: its UID with dashes, "" when none; its QoS class
	 * ("guaranteed", "burstable", "besteffort"), NULL when no pod */
	char pod_uid[CGIDENT_UID_LEN + 1];
	const char *qos;
};

/* What the cgroup at path is (a path as /proc/PID/cgroup shows it; NULL: nothing). Pure. */
void cgident_parse(const char *path, struct cgident *id);

/* What a cgroup's path names that its parent's does not. */
enum { CGIDENT_NEW_CONTAINER = 1, CGIDENT_NEW_POD = 2 };

/* cgident_parse, and which of the container and the pod the cgroup is the first of along its path
 * (CGIDENT_NEW_* bits): where the cgroup view labels a row. Pure. */
int cgident_parse_new(const char *path, struct cgident *id);

/* The container for people, into buf: "docker:0123456789ab" (an id cut to 12 digits as the
 * runtimes' own lists show it), "lxc:NAME", the id alone when the runtime is unknown; "" when
 * none. Returns buf. Pure. */
const char *cgident_container_text(const struct cgident *id, char *buf, size_t size);

#endif
