/* test_cgident.c — a cgroup named from its path: systemd units, the runtimes' containers, the pods
 * of both Kubernetes drivers, on v2 and v1 paths, and paths that only look like them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cgident.h"
#include "tap.h"

#define ID1 "4f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7"
#define ID2 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define UID "8a5e3b1c-2d4f-4a6b-9c8d-7e6f5a4b3c2d"
#define UID_ "8a5e3b1c_2d4f_4a6b_9c8d_7e6f5a4b3c2d"

/* What a path should say; NULL for what it should not. */
struct want {
	const char *path, *unit, *runtime, *container, *pod, *qos;
};

static int same(const char *got, const char *want)
{
	if (!want)
		return got == NULL || got[0] == '\0';
	return got && strcmp(got, want) == 0;
}

static void check(const struct want *w)
{
	struct cgident id;

	cgident_parse(w->path, &id);
	ok(same(id.unit, w->unit) && same(id.runtime, w->runtime) && same(id.container, w->container) &&
		   same(id.pod_uid, w->pod) && same(id.qos, w->qos),
	   "%s: unit %s, container %s %s, pod %s %s", w->path, w->unit ? w->unit : "none",
	   w->runtime ? w->runtime : "-", w->container ? w->container : "none", w->pod ? w->pod : "none",
	   w->qos ? w->qos : "-");
	if (!same(id.unit, w->unit) || !same(id.runtime, w->runtime) || !same(id.container, w->container) ||
	    !same(id.pod_uid, w->pod) || !same(id.qos, w->qos))
		printf("#   got unit '%s', runtime %s, container '%s', pod '%s', qos %s\n", id.unit,
		       id.runtime ? id.runtime : "NULL", id.container, id.pod_uid, id.qos ? id.qos : "NULL");
}

/* cgroup v2 paths (the "0::" line) as systemd, the runtimes and kubelet make them. */
static const struct want v2[] = {
	{ "/", NULL, NULL, NULL, NULL, NULL },
	{ "/init.scope", "init.scope", NULL, NULL, NULL, NULL },
	{ "/system.slice", "system.slice", NULL, NULL, NULL, NULL },
	{ "/system.slice/nginx.service", "nginx.service", NULL, NULL, NULL, NULL },
	{ "/system.slice/nginx.service/worker", "nginx.service", NULL, NULL, NULL, NULL },
	{ "/system.slice/system-getty.slice/getty@tty1.service", "getty@tty1.service", NULL, NULL, NULL, NULL },
	{ "/user.slice/user-1000.slice/session-3.scope", "session-3.scope", NULL, NULL, NULL, NULL },
	{ "/user.slice/user-1000.slice", "user-1000.slice", NULL, NULL, NULL, NULL },
	{ "/user.slice/user-1000.slice/user@1000.service", "user@1000.service", NULL, NULL, NULL, NULL },
	/* a slice below a service names no unit of its own: the service stays */
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice", "user@1000.service", NULL, NULL, NULL, NULL },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice/foo.service", "foo.service", NULL, NULL, NULL,
	  NULL },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-firefox-2841.scope",
	  "app-gnome-firefox-2841.scope", NULL, NULL, NULL, NULL },
	{ "/system.slice/docker-" ID1 ".scope", "docker-" ID1 ".scope", "docker", ID1, NULL, NULL },
	{ "/system.slice/docker-" ID1 ".scope/init", "docker-" ID1 ".scope", "docker", ID1, NULL, NULL },
	/* systemd inside the container: its unit, the container's id */
	{ "/system.slice/docker-" ID1 ".scope/system.slice/nginx.service", "nginx.service", "docker", ID1, NULL,
	  NULL },
	{ "/docker/" ID1, NULL, "docker", ID1, NULL, NULL },
	{ "/system.slice/containerd.service", "containerd.service", NULL, NULL, NULL, NULL },
	{ "/system.slice/cri-containerd-" ID2 ".scope", "cri-containerd-" ID2 ".scope", "containerd", ID2, NULL,
	  NULL },
	{ "/machine.slice/libpod-" ID1 ".scope", "libpod-" ID1 ".scope", "podman", ID1, NULL, NULL },
	{ "/machine.slice/libpod-" ID1 ".scope/container", "libpod-" ID1 ".scope", "podman", ID1, NULL, NULL },
	/* conmon, the runtime's monitor, is not the container */
	{ "/machine.slice/libpod-conmon-" ID1 ".scope", "libpod-conmon-" ID1 ".scope", NULL, NULL, NULL, NULL },
	{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID2 ".scope", "libpod-" ID2 ".scope",
	  "podman", ID2, NULL, NULL },
	{ "/libpod_parent/libpod-" ID2, NULL, "podman", ID2, NULL, NULL },
	{ "/machine.slice/crio-" ID1 ".scope", "crio-" ID1 ".scope", "cri-o", ID1, NULL, NULL },
	{ "/machine.slice/crio-conmon-" ID1 ".scope", "crio-conmon-" ID1 ".scope", NULL, NULL, NULL, NULL },
	/* Kubernetes, systemd driver: the QoS slices, the pod's slice, its containers */
	{ "/kubepods.slice", "kubepods.slice", NULL, NULL, NULL, NULL },
	{ "/kubepods.slice/kubepods-burstable.slice", "kubepods-burstable.slice", NULL, NULL, NULL, NULL },
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice",
	  "kubepods-burstable-pod" UID_ ".slice", NULL, NULL, UID, "burstable" },
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice/cri-containerd-" ID1
	  ".scope",
	  "cri-containerd-" ID1 ".scope", "containerd", ID1, UID, "burstable" },
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice/crio-" ID2 ".scope",
	  "crio-" ID2 ".scope", "cri-o", ID2, UID, "besteffort" },
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice/crio-conmon-" ID2
	  ".scope",
	  "crio-conmon-" ID2 ".scope", NULL, NULL, UID, "besteffort" },
	{ "/kubepods.slice/kubepods-pod" UID_ ".slice/docker-" ID2 ".scope", "docker-" ID2 ".scope", "docker", ID2,
	  UID, "guaranteed" },
	{ "/kubepods.slice/kubepods-pod" UID_ ".slice", "kubepods-pod" UID_ ".slice", NULL, NULL, UID,
	  "guaranteed" },
	/* kubelet in a nested cgroup root (kind, k3s) */
	{ "/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-burstable.slice/kubelet-kubepods-burstable-pod" UID_
	  ".slice/cri-containerd-" ID1 ".scope",
	  "cri-containerd-" ID1 ".scope", "containerd", ID1, UID, "burstable" },
	/* Kubernetes, cgroupfs driver: guaranteed pods right below kubepods */
	{ "/kubepods/besteffort/pod" UID "/" ID1, NULL, NULL, ID1, UID, "besteffort" },
	{ "/kubepods/burstable/pod" UID "/" ID2, NULL, NULL, ID2, UID, "burstable" },
	{ "/kubepods/pod" UID "/" ID1, NULL, NULL, ID1, UID, "guaranteed" },
	{ "/kubepods/pod" UID, NULL, NULL, NULL, UID, "guaranteed" },
	{ "/kubepods/burstable/pod" UID "/crio-" ID2, NULL, "cri-o", ID2, UID, "burstable" },
	/* a node in a container (kind): the pod inside says more than the node's container */
	{ "/docker/" ID2 "/kubepods/besteffort/pod" UID "/" ID1, NULL, NULL, ID1, UID, "besteffort" },
	/* LXC and LXD, systemd-nspawn and other machines of systemd-machined */
	{ "/lxc.payload.web1", NULL, "lxc", "web1", NULL, NULL },
	{ "/lxc.payload.web1/system.slice/nginx.service", "nginx.service", "lxc", "web1", NULL, NULL },
	{ "/lxc.monitor.web1", NULL, NULL, NULL, NULL, NULL },
	{ "/lxc/db_2", NULL, "lxc", "db_2", NULL, NULL },
	{ "/lxc/db_2/init.scope", "init.scope", "lxc", "db_2", NULL, NULL },
	{ "/machine.slice/machine-debian.scope", "machine-debian.scope", "nspawn", "debian", NULL, NULL },
	{ "/machine.slice/machine-foo\\x2dbar.scope", "machine-foo\\x2dbar.scope", "nspawn", "foo-bar", NULL,
	  NULL },
	{ "/machine.slice/machine-qemu\\x2d1\\x2dvm1.scope/libvirt", "machine-qemu\\x2d1\\x2dvm1.scope", "nspawn",
	  "qemu-1-vm1", NULL, NULL },
	{ "/machine.slice/machine-foo\\x2dbar.scope/payload/system.slice/cron.service", "cron.service", "nspawn",
	  "foo-bar", NULL, NULL },
	/* a path as written, with doubled or trailing slashes */
	{ "//system.slice//docker-" ID1 ".scope/", "docker-" ID1 ".scope", "docker", ID1, NULL, NULL },
};

/* cgroup v1 paths, as the cpu,cpuacct, memory or name=systemd lines of /proc/PID/cgroup give them. */
static const struct want v1[] = {
	{ "/system.slice/sshd.service", "sshd.service", NULL, NULL, NULL, NULL },
	{ "/system.slice/docker-" ID2 ".scope", "docker-" ID2 ".scope", "docker", ID2, NULL, NULL },
	{ "/docker/" ID2, NULL, "docker", ID2, NULL, NULL },
	{ "/kubepods/burstable/pod" UID "/" ID1, NULL, NULL, ID1, UID, "burstable" },
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice/docker-" ID1 ".scope",
	  "docker-" ID1 ".scope", "docker", ID1, UID, "besteffort" },
	{ "/lxc/web1", NULL, "lxc", "web1", NULL, NULL },
	{ "/lxc.payload/web1", NULL, "lxc", "web1", NULL, NULL },
	{ "/machine.slice/machine-arch.scope", "machine-arch.scope", "nspawn", "arch", NULL, NULL },
	{ "/user.slice/user-1000.slice/session-c2.scope", "session-c2.scope", NULL, NULL, NULL, NULL },
	{ "/process_api/8f1042e0e07a645757160678de9c6ce7", NULL, NULL, NULL, NULL, NULL },
};

/* Paths that only look like a container's or a pod's: no container, no pod. */
static const struct want alike[] = {
	{ "/system.slice/docker-foo.scope", "docker-foo.scope", NULL, NULL, NULL, NULL },
	{ "/system.slice/docker-" ID1 "0.scope", "docker-" ID1 "0.scope", NULL, NULL, NULL, NULL },
	{ "/system.slice/docker-4F1C2A9E8B7D6C5F4E3D2C1B0A9F8E7D6C5B4A39281706F5E4D3C2B1A0F9E8D7.scope",
	  "docker-4F1C2A9E8B7D6C5F4E3D2C1B0A9F8E7D6C5B4A39281706F5E4D3C2B1A0F9E8D7.scope", NULL, NULL, NULL, NULL },
	{ "/system.slice/docker-" ID1 ".service", "docker-" ID1 ".service", NULL, NULL, NULL, NULL },
	{ "/system.slice/docker.service", "docker.service", NULL, NULL, NULL, NULL },
	{ "/docker/short", NULL, NULL, NULL, NULL, NULL },
	{ "/docker", NULL, NULL, NULL, NULL, NULL },
	{ "/notdocker/" ID1, NULL, NULL, NULL, NULL, NULL },
	{ "/" ID1, NULL, NULL, NULL, NULL, NULL },
	{ "/system.slice/cri-containerd-" ID1 "x.scope", "cri-containerd-" ID1 "x.scope", NULL, NULL, NULL, NULL },
	{ "/system.slice/crio-.scope", "crio-.scope", NULL, NULL, NULL, NULL },
	{ "/machine.slice/libpod-conmon-short.scope", "libpod-conmon-short.scope", NULL, NULL, NULL, NULL },
	{ "/kubepods/besteffort/podXYZ/" ID1, NULL, NULL, NULL, NULL, NULL },
	{ "/kubepods/besteffort/pod" UID_ "/" ID1, NULL, NULL, NULL, NULL, NULL },
	{ "/kubepods/besteffort/pod8A5E3B1C-2D4F-4A6B-9C8D-7E6F5A4B3C2D", NULL, NULL, NULL, NULL, NULL },
	{ "/other/besteffort/pod" UID, NULL, NULL, NULL, NULL, NULL },
	{ "/kubepods/besteffort/pod" UID "/short", NULL, NULL, NULL, UID, "besteffort" },
	{ "/pod" UID "/" ID1, NULL, NULL, NULL, NULL, NULL },
	{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod.slice",
	  "kubepods-burstable-pod.slice", NULL, NULL, NULL, NULL },
	{ "/kubepods.slice/kubepods-burstable-pod" UID ".slice", "kubepods-burstable-pod" UID ".slice", NULL, NULL,
	  NULL, NULL },
	{ "/x.slice/xkubepods-pod" UID_ ".slice", "xkubepods-pod" UID_ ".slice", NULL, NULL, NULL, NULL },
	{ "/x.slice/kubepods-fast-pod" UID_ ".slice", "kubepods-fast-pod" UID_ ".slice", NULL, NULL, NULL, NULL },
	{ "/lxc.payload.", NULL, NULL, NULL, NULL, NULL },
	{ "/lxc.payload.bad name", NULL, NULL, NULL, NULL, NULL },
	{ "/lxc/.hidden", NULL, NULL, NULL, NULL, NULL },
	{ "/machine.slice/machine-.scope", "machine-.scope", NULL, NULL, NULL, NULL },
	{ "/machine.slice/machine-a\\x0ab.scope", "machine-a\\x0ab.scope", NULL, NULL, NULL, NULL },
	{ "/machine.slice/machine-a\\x2.scope", "machine-a\\x2.scope", NULL, NULL, NULL, NULL },
	{ "/system.slice/.service", "system.slice", NULL, NULL, NULL, NULL },
	{ "/system.slice/my unit.service", "system.slice", NULL, NULL, NULL, NULL },
	{ "/system.slice/service", "system.slice", NULL, NULL, NULL, NULL },
	{ "", NULL, NULL, NULL, NULL, NULL },
};

static void check_all(const struct want *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		check(&w[i]);
}

static void test_null_and_long(void)
{
	struct cgident id;
	char path[4096];
	size_t n = 0;

	memset(&id, 'x', sizeof(id));
	cgident_parse(NULL, &id);
	ok(!id.unit[0] && !id.container[0] && !id.pod_uid[0] && !id.runtime && !id.qos, "NULL: nothing");
	path[n++] = '/';
	memset(path + n, 'a', 300);
	n += 300;
	memcpy(path + n, ".service", 9);
	cgident_parse(path, &id);
	ok(!id.unit[0], "a unit name longer than a unit may be names no unit");
	memcpy(path + n, "/lxc.payload.", 13);
	memset(path + n + 13, 'b', 300);
	path[n + 313] = '\0';
	cgident_parse(path, &id);
	ok(!id.container[0], "a container name longer than kept names no container");
}

static void test_text(void)
{
	struct cgident id;
	char buf[64];

	cgident_parse("/system.slice/docker-" ID1 ".scope", &id);
	ok(strcmp(cgident_container_text(&id, buf, sizeof(buf)), "docker:4f1c2a9e8b7d") == 0,
	   "a container's text: runtime and the id's first 12 digits (%s)", buf);
	cgident_parse("/kubepods/pod" UID "/" ID2, &id);
	ok(strcmp(cgident_container_text(&id, buf, sizeof(buf)), "0123456789ab") == 0,
	   "a runtime the path does not say: the id alone (%s)", buf);
	cgident_parse("/machine.slice/machine-foo\\x2dbar.scope", &id);
	ok(strcmp(cgident_container_text(&id, buf, sizeof(buf)), "nspawn:foo-bar") == 0,
	   "a machine: its name unescaped (%s)", buf);
	cgident_parse("/system.slice/cron.service", &id);
	ok(strcmp(cgident_container_text(&id, buf, sizeof(buf)), "") == 0, "no container: empty");
	cgident_parse("/lxc.payload.web1", &id);
	ok(strcmp(cgident_container_text(&id, buf, 6), "lxc:w") == 0, "cut to the buffer (%s)", buf);
}

/* Where the cgroup view labels a row: the first cgroup of a container or a pod along the path. */
static void test_new(void)
{
	static const struct {
		const char *path;
		int news;
	} cases[] = {
		{ "/system.slice/docker-" ID1 ".scope", CGIDENT_NEW_CONTAINER },
		{ "/system.slice/docker-" ID1 ".scope/init", 0 },
		{ "/docker/" ID1, CGIDENT_NEW_CONTAINER },
		{ "/docker", 0 },
		{ "/kubepods/burstable/pod" UID, CGIDENT_NEW_POD },
		{ "/kubepods/burstable/pod" UID "/" ID2, CGIDENT_NEW_CONTAINER },
		{ "/kubepods.slice/kubepods-pod" UID_ ".slice/", CGIDENT_NEW_POD },
		{ "/docker/" ID2 "/kubepods/pod" UID, CGIDENT_NEW_POD },
		{ "/lxc.payload.web1/system.slice", 0 },
		{ "/system.slice/nginx.service", 0 },
		{ "/", 0 },
		{ "", 0 },
	};
	struct cgident id;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		is_int(cgident_parse_new(cases[i].path, &id), cases[i].news, cases[i].path);
	is_int(cgident_parse_new(NULL, &id), 0, "NULL: nothing new");
}

int main(void)
{
	test_new();
	check_all(v2, sizeof(v2) / sizeof(v2[0]));
	check_all(v1, sizeof(v1) / sizeof(v1[0]));
	check_all(alike, sizeof(alike) / sizeof(alike[0]));
	test_null_and_long();
	test_text();
	return tap_done();
}
