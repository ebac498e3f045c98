# lib.sh — shared helpers for delaytop's shell tests. Source it; the test prints TAP.
#
# Every workload a test starts is registered with track_pid and stopped by its pid on exit;
# every sysctl it changes is put back on exit. Tests that touch global state (CPU load, the
# task_delayacct switch) take a lock so that a parallel `make -j check` cannot skew them.

set -u

: "${DELAYTOP:=${top_builddir:-.}/src/delaytop}"
: "${WORKLOAD:=${top_builddir:-.}/tests/workload}"
TEST_NAME=$(basename "$0" .sh)
TAP_N=0
TAP_FAILED=0
TRACKED_PIDS=""
RESTORE_SYSCTLS=""
EXTRA_DIRS=""
TMPDIR_TEST=$(mktemp -d "${TMPDIR:-/tmp}/delaytop-$TEST_NAME.XXXXXX")

cleanup() {
	local pid kv
	lock_times
	# CONT before TERM: one a test holds still (SIGSTOP) runs to take the TERM. Not after it: a
	# SIGCONT throws away a pending SIGSTOP, and a sanitizer build's delaytop, exiting on the
	# TERM, may by then have had one sent by LeakSanitizer's tracer, which waits for it forever.
	for pid in $TRACKED_PIDS; do
		kill -CONT "$pid" 2>/dev/null
		kill -TERM "$pid" 2>/dev/null
	done
	for pid in $TRACKED_PIDS; do
		wait "$pid" 2>/dev/null
	done
	for kv in $RESTORE_SYSCTLS; do
		sysctl -q -w "$kv" >/dev/null 2>&1
	done
	rm -rf "$TMPDIR_TEST" $EXTRA_DIRS
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ok CONDITION-STATUS "description" [diagnostic...]: one TAP test point from an exit status.
tap_ok() {
	local status=$1 desc=$2
	shift 2
	TAP_N=$((TAP_N + 1))
	if [ "$status" -eq 0 ]; then
		echo "ok $TAP_N - $desc"
	else
		echo "not ok $TAP_N - $desc"
		TAP_FAILED=$((TAP_FAILED + 1))
		local line
		for line in "$@"; do
			echo "#   $line"
		done
	fi
}

# check "description" command...: runs the command; a test point from its status.
check() {
	local desc=$1
	shift
	"$@"
	tap_ok $? "$desc" "command failed: $*"
}

diag() {
	echo "# $*"
}

# tap_skip "description" "reason": one test point skipped, for a part of a test that cannot run
# here (the TAP driver reports it as SKIP, which the quick start's check does not accept).
tap_skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1 # SKIP $2"
}

# skip_all "reason": the whole test reports SKIP with the reason.
skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

# The plan; failures were reported as "not ok" already, so the exit status stays 0 (a non-zero
# one would add an ERROR line for the same failures).
done_testing() {
	echo "1..$TAP_N"
	exit 0
}

require_root() {
	[ "$(id -u)" -eq 0 ] || skip_all "needs root (taskstats needs CAP_NET_ADMIN)"
}

require_taskstats() {
	require_root
	"$DELAYTOP" -b -n 1 -d 0.1 -p 1 >/dev/null 2>"$TMPDIR_TEST/probe.err"
	if grep -q -e "taskstats" "$TMPDIR_TEST/probe.err"; then
		skip_all "taskstats is not usable here: $(head -1 "$TMPDIR_TEST/probe.err")"
	fi
}

require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip_all "needs $c"
	done
}

require_cpus() {
	[ "$(nproc)" -ge "$1" ] || skip_all "needs $1 CPUs"
}

# wait_until (and the screen's waits, tests/screen/tmux.sh, built on it) give up after their
# SECONDS times TEST_WAIT_SCALE (1 unless set; the sanitizer pass sets 3 for the screen tests, as
# its delaytop draws several times slower). A wait that succeeds ends as soon as it does, so a
# longer bound costs time only when the test fails.
WAIT_SCALE=${TEST_WAIT_SCALE:-1}
case $WAIT_SCALE in
'' | *[!0-9]* | 0) echo "Bail out! TEST_WAIT_SCALE must be a whole number from 1: '$WAIT_SCALE'"; exit 1 ;;
esac

# wait_until SECONDS COMMAND...: polls COMMAND every 0.1 s until it succeeds or time is up.
wait_until() {
	local end=$((SECONDS + $1 * WAIT_SCALE + 1))
	shift
	while :; do
		"$@" && return 0
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.1
	done
}

# reports_in FILE: how many reports of a batch run FILE holds so far, by its name: *.json (its psi
# lines), *.csv (its distinct times), else text (its headers).
reports_in() {
	case $1 in
	*.json) grep -c '^{"type":"psi"' "$1" ;;
	*.csv) grep -o '^[0-9][^,]*' "$1" | uniq | wc -l ;;
	*) grep -c '^delaytop - ' "$1" ;;
	esac
}

# comm_is PID NAME: whether PID's command name is NAME (wait_until 5 comm_is ...: until its exec).
comm_is() {
	[ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]
}

# lock_global: serialises tests that load CPUs or flip sysctls. Programs a test starts should not
# inherit fd 9 (start_workload closes it), or one left running would hold the lock.
lock_global() {
	LOCK_ASKED=$SECONDS
	exec 9>"${TMPDIR:-/tmp}/delaytop-tests.lock"
	flock 9
	LOCK_TAKEN=$SECONDS
}

# The lock's times in the test's log: the suite's length is about the sum of the times held.
lock_times() {
	if [ -n "${LOCK_TAKEN:-}" ]; then
		echo "# the tests' lock: waited $((LOCK_TAKEN - LOCK_ASKED)) s, held $((SECONDS - LOCK_TAKEN)) s"
	fi
}

# require_why [--loose]: takes the global lock (a --why delaytop beside exit_storm.sh under ASan made
# it lose exit records, and the probe below is one), then probes --why with one reading: its JSON and
# stderr in $TMPDIR_TEST/probe.json and probe.err, its why.state in WHY_STATE. Skips the test, with
# the probe's reason, unless --why is on; with --loose only where the eBPF side cannot run at all (a
# build without it, a kernel without BTF), so that a --why failing otherwise fails the test. Call it
# in the test's own shell (not in $(...) or a pipe), as the lock is fd 9 of that shell.
require_why() {
	local p=$TMPDIR_TEST/probe
	require_cmd jq
	lock_global
	"$DELAYTOP" -b --why --format json -n 1 -d 0.2 -p 1 >"$p.json" 2>"$p.err" 9>&-
	WHY_STATE=$(jq -r 'select(.type == "psi") | .why.state' "$p.json" 2>/dev/null | tail -1)
	[ "$WHY_STATE" = on ] && return 0
	if [ "${1:-}" = --loose ]; then
		grep -q "built without eBPF" "$p.err" && skip_all "$(head -1 "$p.err")"
		[ -r /sys/kernel/btf/vmlinux ] || skip_all "the kernel has no BTF: $(head -1 "$p.err")"
		return 0
	fi
	skip_all "--why is not on here: $(head -1 "$p.err")"
}

# netlink_sockets PID: how many generic netlink sockets (protocol 16) the process holds: its
# taskstats socket for queries and its exit listeners.
netlink_sockets() {
	local inodes
	inodes=$(ls -l "/proc/$1/fd" 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p' | sort -u)
	awk -v list=" $(echo $inodes) " 'NR > 1 && $2 == 16 && index(list, " " $10 " ") { n++ } END { print n + 0 }' \
		/proc/net/netlink
}

# wait_listening PID: waits (up to 20 s) until delaytop PID has opened its exit listeners, so that
# tasks started from now on are seen even when they end before its first reading (a sanitizer
# build starts slowly). Returns 1 when it did not.
wait_listening() {
	local i
	for ((i = 0; i < 1000; i++)); do # soon after: tests time their tasks from here
		# any two sockets (netlink_sockets takes 0.1 s and more): the query socket is opened
		# first, the listeners next, each registered as it is opened
		[ "$(ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'socket:')" -ge 2 ] && return 0
		sleep 0.02
	done
	return 1
}

# ppoll_nr: the number of the ppoll system call here (as /proc/PID/syscall gives it), or nothing.
# delaytop's live loop (batch mode, the exporter, command mode's readings; not the screen) waits
# for its next reading in ppoll, and makes no other ppoll: a main thread in ppoll has made a
# reading and not begun the next.
ppoll_nr() {
	case $(uname -m) in
	x86_64) echo 271 ;;
	aarch64) echo 73 ;;
	esac
}

# wait_first_reading PID: waits (up to 20 s) until delaytop PID has made its first reading: its
# main thread waits in ppoll for the next one (ppoll_nr). Its exit listeners are open by then
# too. Tasks started from now on start in its first interval, not during its first reading
# (which, on a busy machine, can take a good part of a second). Returns 1 when it did not.
wait_first_reading() {
	local nr i call
	nr=$(ppoll_nr)
	[ -n "$nr" ] || { wait_listening "$1"; return; }
	for ((i = 0; i < 1000; i++)); do
		read -r call _ 2>/dev/null <"/proc/$1/syscall" && [ "$call" = "$nr" ] && return 0
		sleep 0.02
	done
	return 1
}

# free_port: a free TCP port on loopback.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_exporter [--readings N] ARGS...: delaytop --listen on a free loopback port with ARGS, its
# stdout and stderr in $TMPDIR_TEST/exporter.out and exporter.err, tracked; sets EXPORTER_PID,
# PORT and URL (its /metrics). Waits (10 s at most) until a scrape answers, with N readings or more
# when asked; the last scrape is left in $TMPDIR_TEST/exporter.scrape, SCRAPED_AT its time
# (seconds since the epoch). Returns 1 when none did.
start_exporter() {
	local readings=0 i
	if [ "${1:-}" = --readings ]; then
		readings=$2
		shift 2
	fi
	PORT=$(free_port)
	URL=http://127.0.0.1:$PORT/metrics
	"$DELAYTOP" --listen "127.0.0.1:$PORT" "$@" >"$TMPDIR_TEST/exporter.out" 2>"$TMPDIR_TEST/exporter.err" 9>&- &
	EXPORTER_PID=$!
	track_pid "$EXPORTER_PID"
	for ((i = 0; i < 50; i++)); do
		if curl -sf -m 2 -o "$TMPDIR_TEST/exporter.scrape" "$URL"; then
			SCRAPED_AT=$(date +%s.%N)
			awk -v n="$readings" '$1 == "delaytop_readings_total" && $2 >= n + 0 { seen = 1 } END { exit !seen }' \
				"$TMPDIR_TEST/exporter.scrape" && return 0
		fi
		sleep 0.2
	done
	return 1
}

# scrape_reading FILE TID...: scrapes start_exporter's URL into FILE until a scrape shows a
# reading that an earlier one did not (delaytop_readings_total grew), marking the TIDs before
# each scrape and after the last (marks X1, X2, ...). The counters in FILE then come from queries
# made between the marks SCRAPE_LO and SCRAPE_HI: that reading ended after the last scrape that
# did not show it was asked for, and began at most its duration before
# (delaytop_reading_duration_seconds), and a mark that early is looked for among this call's.
# Returns 1 when no such reading came within about 10 s.
scrape_reading() {
	local file=$1 r r0="" t_old="" dur first i j lo k v
	shift
	first=$((${SCRAPE_N:-0} + 1))
	for ((i = 0; i < 500; i++)); do
		SCRAPE_N=$((${SCRAPE_N:-0} + 1))
		mark "X$SCRAPE_N" "$@"
		if ! curl -sf -m 2 -o "$file" "$URL"; then
			sleep 0.02
			continue
		fi
		r="" dur=""
		while read -r k v _; do # builtins: the scrapes go on at a pace of their own
			case $k in
			delaytop_readings_total) r=$v ;;
			delaytop_reading_duration_seconds) dur=$v ;;
			esac
		done <"$file"
		if [ -n "$r0" ] && [ "$r" != "$r0" ]; then
			dur=$(awk -v d="$dur" 'BEGIN { printf "%d", d * 1e6 + 1000 }')
			lo=""
			for ((j = first; j < SCRAPE_N; j++)); do
				[ "${MARK_T[X$j]}" -le $((t_old - ${dur:-1000000})) ] && lo=X$j
			done
			if [ -n "$lo" ]; then
				SCRAPE_N=$((SCRAPE_N + 1))
				mark "X$SCRAPE_N" "$@"
				SCRAPE_LO=$lo SCRAPE_HI=X$SCRAPE_N
				return 0
			fi
		fi
		r0=$r t_old=${MARK_T[X$SCRAPE_N]}
	done
	return 1
}

# stop_signal_setup: what the tests of stop signals (tests/kernel and tests/screen stop_signal.sh)
# need, or they skip: root, python3, taskstats, x86_64 (stopwatch.py knows its poll syscalls) and
# the shim tests/waitgap.so. Sets STOPWATCH, WAITGAP and LIMIT_MS, the time a stop may take.
stop_signal_setup() {
	require_root
	require_cmd python3
	require_taskstats
	[ "$(uname -m)" = x86_64 ] || skip_all "stopwatch.py knows the poll syscalls of x86_64 only"
	STOPWATCH=$top_srcdir/tests/stopwatch.py
	WAITGAP=$(cd "${top_builddir:-.}" && pwd)/tests/waitgap.so
	[ -f "$WAITGAP" ] || skip_all "tests/waitgap.so is not built (make check builds it)"
	LIMIT_MS=100
	# a sanitizer build's exit (LeakSanitizer's look at the heap) alone takes 50 to 150 ms
	ldd "$DELAYTOP" 2>/dev/null | grep -q libasan && LIMIT_MS=500 && diag "a sanitizer build: $LIMIT_MS ms allowed"
	return 0
}

# enable_delayacct: switches kernel.task_delayacct on for the test (put back on exit), or skips.
enable_delayacct() {
	set_sysctl kernel.task_delayacct 1 || skip_all "cannot set kernel.task_delayacct"
}

# set_sysctl NAME VALUE: sets a sysctl and puts the value it had before the test's first change
# back on exit.
set_sysctl() {
	local old
	old=$(sysctl -n "$1") || return 1
	case " $RESTORE_SYSCTLS" in
	*" $1="*) ;;
	*) RESTORE_SYSCTLS="$RESTORE_SYSCTLS $1=$old" ;;
	esac
	sysctl -q -w "$1=$2" >/dev/null
}

# setup_nobody: NOBODY (an array) runs a command as uid 65534 without any capability, and DT is a
# delaytop binary that user can run: the build's, or a 0755 copy removed on exit. Skips when
# either is impossible here.
setup_nobody() {
	local bin
	NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all)
	"${NOBODY[@]}" true 2>/dev/null || skip_all "setpriv cannot switch to uid 65534 here"
	DT=$DELAYTOP
	"${NOBODY[@]}" test -x "$DT" 2>/dev/null && return 0
	bin=$(mktemp -d /tmp/delaytop-unpriv.XXXXXX) || skip_all "cannot make a temp dir"
	EXTRA_DIRS="$EXTRA_DIRS $bin"
	chmod 0755 "$bin" && cp "$DELAYTOP" "$bin/delaytop" && chmod 0755 "$bin/delaytop"
	DT=$bin/delaytop
	"${NOBODY[@]}" test -x "$DT" 2>/dev/null || skip_all "nobody cannot run $DELAYTOP nor a copy in $bin"
	diag "running a copy: nobody cannot reach $DELAYTOP"
}

track_pid() {
	TRACKED_PIDS="$TRACKED_PIDS $1"
}

# start_workload ARGS...: starts tests/workload in the background, tracks it and sets
# WORKLOAD_PID. Call it directly, not as $(start_workload ...): a command substitution runs it in
# a subshell, so the pid would never be tracked and stop_pid could not wait for it.
start_workload() {
	# 9>&-: a workload left behind by a killed test must not hold the lock of lock_global
	"$WORKLOAD" "$@" >/dev/null 2>&1 9>&- &
	WORKLOAD_PID=$!
	track_pid "$WORKLOAD_PID"
}

# child_threads PID: sets kids (PID's child processes, by spaces) and CHILD_THREADS (their
# threads, all told).
child_threads() {
	local c
	kids=$(cat "/proc/$1/task/$1/children" 2>/dev/null)
	CHILD_THREADS=0
	for c in $kids; do CHILD_THREADS=$((CHILD_THREADS + $(ls "/proc/$c/task" 2>/dev/null | wc -l))); done
}

# idle_threads PROCS THREADS: starts the workload's PROCS processes of THREADS sleeping threads
# each (states.sh, stateiter.sh), tracked, and waits until all their threads exist; skips the
# test when they do not. Sets L (the workload), kids (its processes, by spaces) and pids (by
# commas, for -p).
idle_threads() {
	local want=$(($1 * $2))
	"$WORKLOAD" idle "$1" "$2" 0 >"$TMPDIR_TEST/idle.out" 2>&1 9>&- &
	L=$!
	track_pid "$L"
	for _ in $(seq 300); do
		child_threads "$L"
		[ "$CHILD_THREADS" -ge "$want" ] && break
		sleep 0.05
	done
	[ "$CHILD_THREADS" -eq "$want" ] || skip_all "workload idle $1 $2 did not start its $want threads (got $CHILD_THREADS)"
	pids=$(tr ' ' ',' <<<"$kids" | sed 's/,$//')
}

# freeze_thread TID MS: the workload stops thread TID by ptrace (state t) for MS ms, tracked;
# sets F (its pid) and returns 0 once TID is stopped, else 1 (what it said is in
# $TMPDIR_TEST/freeze.out).
freeze_thread() {
	"$WORKLOAD" freeze "$1" "$2" >"$TMPDIR_TEST/freeze.out" 2>&1 9>&- &
	F=$!
	track_pid "$F"
	for _ in $(seq 60); do
		grep -q frozen "$TMPDIR_TEST/freeze.out" && break
		sleep 0.05
	done
	grep -q frozen "$TMPDIR_TEST/freeze.out"
}

# stop_pid PID: stops one tracked workload now.
stop_pid() {
	kill -TERM "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}

# html5lib_python: the python3 that has html5lib (Debian's python3-html5lib); nothing when none has.
html5lib_python() {
	local p
	for p in python3 /usr/bin/python3; do
		"$p" -c 'import html5lib' 2>/dev/null && { echo "$p"; return 0; }
	done
	return 0
}

# html5_errors PY FILE: what html5lib, run by PY, finds wrong in FILE parsed strictly as HTML5;
# nothing when it parses.
html5_errors() {
	local err
	err=$("$1" -c '
import sys, html5lib
p = html5lib.HTMLParser(strict=True)
try:
    p.parse(open(sys.argv[1], "rb").read())
except Exception as e:
    print(e, p.errors[:3])
' "$2" 2>&1) || err="the parse failed to run: $err"
	printf '%s' "$err"
}

# disk_dir: the first writable directory of /var/tmp, the build directory and /tmp that is on a
# disk (O_DIRECT on tmpfs fails or never waits for a device); nothing when none is.
disk_dir() {
	local d
	for d in /var/tmp "${top_builddir:-}" /tmp; do
		[ -n "$d" ] && [ -d "$d" ] && [ -w "$d" ] || continue
		case $(stat -f -c %T "$d" 2>/dev/null) in
		tmpfs | ramfs | proc | sysfs | "") continue ;;
		esac
		echo "$d"
		return
	done
}

# mount_of FSTYPE [OPTION]: the mount point of the first mount of that type (with that super
# option, such as blkio or name=systemd), from /proc/self/mountinfo.
mount_of() {
	awk -v t="$1" -v o="${2:-}" '{ for (i = 7; $i != "-"; i++);
		if ($(i + 1) == t && (o == "" || index("," $(i + 3) ",", "," o ","))) { print $5; exit } }' \
		/proc/self/mountinfo
}

# require_v2: sets V2 to where the cgroup v2 hierarchy is mounted, or skips the test.
require_v2() {
	V2=$(mount_of cgroup2)
	[ -n "$V2" ] || skip_all "no cgroup v2 hierarchy is mounted"
}

# slow_fsync NAME: tests/stackwait's fsync loop (SLOW_PID) on a disk, in a cgroup NAME under the
# v2 hierarchy (THR_CG) whose writes the block layer holds to one a second, so that each fsync
# blocks for a second or more: by cgroup v1's blkio.throttle where blkio is mounted (its group
# THR_BL, by the same name), else by v2's io.max. The loop starts in its cgroups, so that its
# first page and all its writes are theirs. Skips the test when it cannot. Sets the EXIT trap to
# slow_disk_release, which lifts the throttle before cleanup stops the tests' processes (a task
# held by it ends only when its writes go out), then removes the groups.
slow_fsync() {
	local name=$1 dir dev v1 limit sw=${top_builddir:-.}/tests/stackwait fs out=$TMPDIR_TEST/$1.pid
	[ -x "$sw" ] || skip_all "tests/stackwait was not built"
	dir=$(disk_dir)
	[ -n "$dir" ] || skip_all "no writable directory on a disk (fsync on tmpfs never waits)"
	require_v2
	# the disk under it (a partition's whole disk: the throttle is the disk's)
	dev=$(stat -c '%Hd:%Ld' "$dir")
	[ -e "/sys/dev/block/$dev/partition" ] && dev=$(cat "/sys/dev/block/$dev/../dev")
	[ -e "/sys/dev/block/$dev" ] || skip_all "no block device under $dir ($dev)"
	THR_CG=$V2/$name THR_BL= THR_FILE= THR_UNLIMIT=
	trap slow_disk_release EXIT
	mkdir "$THR_CG" || skip_all "cannot create a cgroup under $V2"
	v1=$(mount_of cgroup blkio)
	if [ -n "$v1" ]; then
		mkdir "$v1/$name" || skip_all "cannot create a cgroup under $v1"
		THR_BL=$v1/$name
		THR_FILE=$THR_BL/blkio.throttle.write_iops_device limit="$dev 1" THR_UNLIMIT="$dev 0"
	elif grep -qw io "$V2/cgroup.subtree_control" 2>/dev/null; then
		THR_FILE=$THR_CG/io.max limit="$dev wiops=1" THR_UNLIMIT="$dev wiops=max"
	else
		skip_all "no blkio hierarchy and no io controller in $V2 to hold the writes back"
	fi
	echo "$limit" >"$THR_FILE" || skip_all "the kernel refuses '$limit' in $THR_FILE"
	fs=$(mktemp "$dir/$name.XXXXXX")
	EXTRA_DIRS="$EXTRA_DIRS $fs"
	# shellcheck disable=SC2016 # the inner shell expands them
	sh -c 'echo $$ >"$1/cgroup.procs" && { [ -z "$2" ] || echo $$ >"$2/cgroup.procs"; } && exec "$3" fsync "$4"' \
		sh "$THR_CG" "$THR_BL" "$sw" "$fs" >"$out" 2>"$out.err" 9>&- &
	track_pid $!
	wait_until 3 test -s "$out"
	SLOW_PID=$(head -1 "$out")
	[ -n "$SLOW_PID" ] || skip_all "cannot start the fsync loop in $THR_CG: $(cat "$out.err")"
}

slow_disk_release() {
	[ -z "${THR_FILE:-}" ] || echo "$THR_UNLIMIT" >"$THR_FILE"
	cleanup
	rmdir "$THR_CG" ${THR_BL:+"$THR_BL"} 2>/dev/null
}

# within VALUE LOW HIGH: true when LOW <= VALUE <= HIGH (decimals allowed).
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v + 0 >= lo + 0 && v + 0 <= hi + 0) }'
}

# schedstat_wait TID: field 2 of /proc/TID/schedstat, nanoseconds waited on a runqueue.
schedstat_wait() {
	awk '{ print $2 }' "/proc/$1/schedstat"
}

# ---- the reference: what the kernel itself counted for a task between two moments ----
# What a spinner waits depends on who else runs on its CPU (another test, a compile), so the
# tests never expect "about 50%": they read the counters delaytop reports from the kernel's own
# files, just before and just after delaytop's readings, and compare over the same interval.
# /proc/TID/schedstat field 1 is the task's time on a CPU and field 2 its run-queue wait (ns:
# the very counters taskstats reports as CPU time and CPU delay); /proc/TID/stat field 42 is its
# block-I/O delay in whole clock ticks (taskstats' block-I/O delay, truncated). The kernel adds a
# wait to them when it ends (a task back on a CPU) and CPU time at ticks and switches, so they
# move in steps; a reading a few ms off may see one step more or less, which is why a reading's
# counters are bracketed between two reads rather than read once.

declare -gA MARK_T=() MARK_RUN=() MARK_WAIT=() MARK_IO=()

# mark NAME TID...: notes each TID's counters and, after them, the moment NAME (µs since the
# epoch): the counters are no later than it. Builtins only, so that a mark takes microseconds
# however busy the machine is. A TID that is gone has no counters.
mark() {
	local name=$1 tid line f
	shift
	for tid; do
		if { read -r "MARK_RUN[$name:$tid]" "MARK_WAIT[$name:$tid]" _ <"/proc/$tid/schedstat" &&
			read -r line <"/proc/$tid/stat"; } 2>/dev/null; then
			read -r -a f <<<"${line##*) }"
			MARK_IO[$name:$tid]=${f[39]}
		fi
	done
	MARK_T[$name]=${EPOCHREALTIME/[.,]/}
}

# marked WHAT A B [TID...]: what the kernel counted from mark A to mark B, summed over the TIDs,
# in ms: run (time on a CPU), wait (run-queue wait), io (block-I/O delay, in whole clock ticks)
# or wall (the time between the marks, no TID). Empty when a mark lacks a task.
marked() {
	local what=$1 a=$2 b=$3 tid sum=0 tick=1 va vb
	shift 3
	[ "$what" = io ] && tick=$((1000000000 / ${CLK_TCK:-$(getconf CLK_TCK)}))
	for tid; do
		case $what in
		run) va=${MARK_RUN[$a:$tid]:-} vb=${MARK_RUN[$b:$tid]:-} ;;
		wait) va=${MARK_WAIT[$a:$tid]:-} vb=${MARK_WAIT[$b:$tid]:-} ;;
		io) va=${MARK_IO[$a:$tid]:-} vb=${MARK_IO[$b:$tid]:-} ;;
		esac
		[ -n "$va" ] && [ -n "$vb" ] || return 0
		sum=$((sum + (vb - va) * tick))
	done
	[ "$what" = wall ] && sum=$(((MARK_T[$b] - MARK_T[$a]) * 1000))
	awk -v ns="$sum" 'BEGIN { printf "%.3f\n", ns / 1e6 }'
}

# follow_start OUT ERR TID... -- COMMAND...: starts COMMAND (delaytop in batch mode, or a wrapper
# of it) in the background, tracked, its output into OUT and its stderr into ERR, and marks the
# TIDs (F0) just before; sets DT_PID. follow_reports then follows it to its end.
follow_start() {
	FOLLOW_OUT=$1
	local err=$2
	shift 2
	FOLLOW_TIDS=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		FOLLOW_TIDS+=("$1")
		shift
	done
	shift
	: >"$FOLLOW_OUT"
	mark F0 "${FOLLOW_TIDS[@]}"
	"$@" >"$FOLLOW_OUT" 2>"$err" 9>&- &
	DT_PID=$!
	track_pid "$DT_PID"
}

# follow_reports: follows what follow_start started until it ends, marking the TIDs every 3 ms or
# so, and at once when more output is in the file: a report starts at a line whose time (the
# first ISO time in it) is not the last one's. Sets DT_STATUS (the exit status), REPORTS (how
# many reports came), FOLLOW_MARKS (the last mark's number) and, for each report K, REPORT_LO[K]
# (the last mark made before its reading began: its time as printed), REPORT_HI[K] (the mark
# made as it came, after its reading), REPORT_T[K] (its time as printed, µs) and REPORT_LAG[K]
# (ms from its time to REPORT_HI[K]); counted then brackets what the kernel counted over a
# report's interval. Each mark made while delaytop waits for its next reading (ppoll_nr) sets
# REPORT_WAITED[K] for the last report K that came (0: none yet), and the first such before any
# report is REPORT_HI[0], a mark after its first reading, which prints nothing.
follow_reports() {
	local idle=$TMPDIR_TEST/follow.idle chunk carry="" last="" ifd sfd times=() n=0 k i t st ended=0 kind rest line
	local nr call waiting
	nr=$(ppoll_nr)
	REPORTS=0 REPORT_LO=() REPORT_HI=() REPORT_T=() REPORT_LAG=() REPORT_WAITED=() DT_STATUS=""
	rm -f "$idle"
	mkfifo "$idle" || return 1
	exec {sfd}<>"$idle" {ifd}<"$FOLLOW_OUT" # read -t on the fifo, never written, sleeps without a fork
	while :; do
		chunk=""
		IFS= read -r -d '' -u "$ifd" chunk # all there is, to the end of the file
		if [ -n "$chunk" ]; then
			n=$((n + 1)) # after it came: after the readings of the reports in it
			mark "F$n" "${FOLLOW_TIDS[@]}"
			# each report's time, the first ISO time in the first 64 characters of its lines
			# (JSON, CSV, the text header), as it changes; the line still being written waits
			while read -r kind rest; do
				if [ "$kind" = C ]; then
					carry=$rest
				elif [ "$rest" != "$last" ]; then
					REPORTS=$((REPORTS + 1))
					REPORT_HI[REPORTS]=F$n
					last=$rest
					times+=("$last")
				fi
			done < <(printf '%s%s\001' "$carry" "$chunk" | awk -v last="$last" '
				/\001/ { sub(/\001.*/, ""); print "C " $0; next }
				match(substr($0, 1, 64), /[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:.]+[+-][0-9][0-9]:[0-9][0-9]/) {
					t = substr($0, RSTART, RLENGTH); if (t != last) print "T " t; last = t }')
			continue
		fi
		[ "$ended" = 1 ] && break
		# ended: gone or a zombie (read once more, for what it wrote last)
		st=Z
		{ read -r line <"/proc/$DT_PID/stat" && st=${line##*) } && st=${st%% *}; } 2>/dev/null
		[ "$st" = Z ] && ended=1 && continue
		waiting=""
		[ -n "$nr" ] && { read -r call _ <"/proc/$DT_PID/syscall"; } 2>/dev/null && [ "$call" = "$nr" ] && waiting=1
		n=$((n + 1))
		mark "F$n" "${FOLLOW_TIDS[@]}"
		if [ -n "$waiting" ]; then
			[ "$REPORTS" = 0 ] && [ -z "${REPORT_HI[0]:-}" ] && REPORT_HI[0]=F$n
			REPORT_WAITED[REPORTS]=1
		fi
		read -r -t 0.003 -u "$sfd"
	done
	exec {ifd}<&- {sfd}>&-
	rm -f "$idle"
	FOLLOW_MARKS=$n
	wait "$DT_PID"
	DT_STATUS=$?
	[ "$REPORTS" -gt 0 ] || return 0
	# the times as printed, truncated to the ms, are no later than the readings began
	k=0 i=0
	while read -r t; do
		k=$((k + 1))
		while [ "$i" -lt "$n" ] && [ "${MARK_T[F$((i + 1))]}" -le "$t" ]; do
			i=$((i + 1))
		done
		REPORT_LO[k]=F$i
		REPORT_T[k]=$t
		REPORT_LAG[k]=$(((MARK_T[${REPORT_HI[k]}] - t) / 1000 + 1))
	done < <(printf '%s\n' "${times[@]}" | date -f - +%s%6N)
}

# follow_delaytop OUT ERR TID... -- COMMAND...: follow_start, then follow_reports.
follow_delaytop() {
	follow_start "$@"
	follow_reports
}

# counted WHAT K TID...: "LOW HIGH", the least and the most (ms) the kernel can have counted for
# the TIDs (WHAT as in marked) over report K's interval: what it counted from just after the
# reading that ended report K-1 to just before the one that ended report K, and from just before
# the first to just after the second. The first report's interval starts at a reading that
# prints nothing: from before delaytop started (F0), and from the first mark that saw it wait
# for its next reading (REPORT_HI[0]; the least is 0 without one). A count in clock ticks may be
# a tick more at each end.
counted() {
	local what=$1 k=$2 lo hi
	shift 2
	[ "$k" -ge 1 ] && [ "$k" -le "$REPORTS" ] || return 1
	: "${CLK_TCK:=$(getconf CLK_TCK)}"
	hi=$(marked "$what" "${REPORT_LO[k - 1]:-F0}" "${REPORT_HI[k]}" "$@")
	if [ -n "${REPORT_HI[k - 1]:-}" ]; then
		lo=$(marked "$what" "${REPORT_HI[k - 1]}" "${REPORT_LO[k]}" "$@")
	else
		lo=0
	fi
	[ -n "$lo" ] && [ -n "$hi" ] || return 1
	awk -v lo="$lo" -v hi="$hi" -v w="$what" -v n=$# -v t="$CLK_TCK" 'BEGIN {
		if (w == "io") { lo -= n * 1000 / t; hi += n * 1000 / t }
		printf "%.3f %.3f\n", (lo < 0 ? 0 : lo), hi }'
}

# counted_between WHAT T0 T1 TID...: "LOW HIGH", the least and the most (ms) the kernel can have
# counted for the TIDs (WHAT as in marked) between the moments T0 and T1 (µs since the epoch),
# from the marks of the last follow_reports: from the first mark at or after T0 to the last at
# or before T1, and from the last at or before T0 to the first at or after T1.
counted_between() {
	local what=$1 t0=$2 t1=$3 i a=F0 b="" c="" d="" lo hi
	shift 3
	for ((i = 0; i <= FOLLOW_MARKS; i++)); do
		[ "${MARK_T[F$i]}" -le "$t0" ] && a=F$i
		[ -z "$b" ] && [ "${MARK_T[F$i]}" -ge "$t0" ] && b=F$i
		[ "${MARK_T[F$i]}" -le "$t1" ] && c=F$i
		[ -z "$d" ] && [ "${MARK_T[F$i]}" -ge "$t1" ] && d=F$i
	done
	[ -n "$b" ] && [ -n "$d" ] || return 1
	lo=$(marked "$what" "$b" "$c" "$@")
	hi=$(marked "$what" "$a" "$d" "$@")
	[ -n "$lo" ] && [ -n "$hi" ] || return 1
	awk -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%.3f %.3f\n", (lo < 0 ? 0 : lo), hi }'
}

# report_lag K INTERVAL_S: the most (ms) delaytop's clock for its tasks can differ from its clock
# for report K (of INTERVAL_S) at either end of the report's interval: the REPORT_LAG of the two
# readings; for the first, which prints nothing, until REPORT_HI[0], and the whole interval
# without it.
report_lag() {
	local k=$1 iv=$2 lag lag0
	lag=${REPORT_LAG[k]}
	if [ "$k" -gt 1 ]; then
		lag0=${REPORT_LAG[k - 1]}
	elif [ -n "${REPORT_HI[0]:-}" ]; then # the first reading began the interval before report 1
		lag0=$(awk -v m="${MARK_T[${REPORT_HI[0]}]}" -v t="${REPORT_T[1]}" -v iv="$iv" \
			'BEGIN { printf "%d", (m - t) / 1000 + iv * 1000 + 1 }')
	else
		lag0=$(awk -v iv="$iv" 'BEGIN { printf "%d", iv * 1000 }')
	fi
	[ "$lag0" -gt "$lag" ] && lag=$lag0
	echo "$lag"
}

# agrees_with_kernel [--total] PCT INTERVAL_S WHAT K TID...: whether PCT over INTERVAL_S,
# delaytop's number in report K for the TIDs (one row: a task, or a process or cgroup of these
# tasks), is what the kernel counted for them (counted WHAT K TID...). --total: PCT is instead
# the seconds delaytop counted over the interval (the growth of a total since the start). The
# slack: 2 ms for the rounding of the printed numbers and, for a percentage, the share of the
# count that the difference between delaytop's clock for the tasks and its clock for the report
# can make (its tasks are queried a little after its reading's time: at most the REPORT_LAG of
# the two readings; for the first, which prints nothing, until REPORT_HI[0], and the whole
# interval without it). No number (empty or null) never agrees: a wait longer than the interval
# is bounded by the task's age, which the tests' tasks know. AGREED says what was compared.
agrees_with_kernel() {
	local total=0 pct iv what k range lag verdict
	[ "$1" = --total ] && total=1 && shift
	pct=$1 iv=$2 what=$3 k=$4
	shift 4
	range=$(counted "$what" "$k" "$@") || { AGREED="no reference for report $k"; return 1; }
	lag=$(report_lag "$k" "$iv")
	[ "$total" = 0 ] || lag=0
	[[ $pct =~ ^[0-9.]+$ ]] || pct=""
	AGREED=$(awk -v p="$pct" -v iv="$iv" -v r="$range" -v lag="$lag" -v total="$total" 'BEGIN {
		split(r, b, " "); got = total ? p * 1000 : p / 100 * iv * 1000; f = lag / (iv * 1000)
		lo = b[1] * (1 - f) - 2; hi = b[2] * (1 + f) + 2
		ok = p != "" && got >= lo && got <= hi
		printf "%s %s ms (%s over %s s), the kernel %.1f..%.1f ms (%.1f..%.1f with the slack)", (ok ? "ok" : "no"),
			(p == "" ? "no number:" : sprintf("%.1f", got)), (total ? sprintf("%.3f s", p) : p "%"), iv, b[1], b[2], lo, hi }')
	verdict=${AGREED%% *}
	AGREED=${AGREED#* }
	[ "$verdict" = ok ]
}

# cpu_busy CPU: how busy (percent) the CPU was over the next 0.3 s.
cpu_busy() {
	local a b
	a=$(awk -v c="cpu$1" '$1 == c { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat)
	sleep 0.3
	b=$(awk -v c="cpu$1" '$1 == c { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat)
	awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); t = y[2] - x[2]
		printf "%.0f", (t > 0 ? (y[1] - x[1]) / t * 100 : 0) }'
}

# wait_cpu_quiet CPU: waits up to ~3 s for someone else's load on CPU to pass, and says how busy
# it was, so that a failed expectation can be read against it.
wait_cpu_quiet() {
	local busy tries
	busy=$(cpu_busy "$1")
	for tries in 1 2 3 4 5 6 7 8 9; do
		[ "$busy" -le 20 ] && break
		busy=$(cpu_busy "$1")
	done
	diag "CPU $1 was $busy% busy before this test's workloads started"
}

# start_family CPU: a shell (FAMILY_PARENT) whose two children (FAMILY_KID1 < FAMILY_KID2) spin on
# CPU, each waiting about half the time; all three tracked. Skips the test when they do not start.
start_family() {
	local kids
	sh -c '"$1" spin "$2" & "$1" spin "$2" & wait' sh "$WORKLOAD" "$1" >/dev/null 2>&1 9>&- &
	FAMILY_PARENT=$!
	track_pid "$FAMILY_PARENT"
	for _ in $(seq 50); do
		kids=$(pgrep -P "$FAMILY_PARENT" | sort -n | tr '\n' ' ')
		[ "$(echo $kids | wc -w)" = 2 ] && break
		sleep 0.1
	done
	set -- $kids
	FAMILY_KID1=${1:-} FAMILY_KID2=${2:-}
	[ -n "$FAMILY_KID2" ] || skip_all "the spinners of start_family did not start"
	track_pid "$FAMILY_KID1"
	track_pid "$FAMILY_KID2"
}
