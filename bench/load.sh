# bench/load.sh — sourced by the benches (run.sh, exporter.sh, recorder.sh, screen.sh, whycost.sh): the load they measure
# against (tests/workload idle PROCS THREADS BUSY) and the kernel settings it needs, each put back.
# The sourcing script defines die, and calls load_restore from its EXIT trap. load_settings first
# takes the tests' lock (lock.sh).
. "$here/lock.sh"

load_sysctl=/proc/sys/kernel/task_delayacct
load_pid_max=/proc/sys/kernel/pid_max
load_old_delayacct= load_old_pid_max= workload_pid=

# stop_pid PID: TERM, then KILL after 10 s; reaped.
stop_pid() {
	local i
	kill "$1" 2>/dev/null || return 0
	for ((i = 0; i < 100; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

# load_settings THREADS: delay accounting on, and room in kernel.pid_max for THREADS thread ids.
load_settings() {
	local need=$(($1 * 2 + 10000))
	bench_lock
	load_old_delayacct=$(cat "$load_sysctl")
	echo 1 > "$load_sysctl"
	if [ "$(cat "$load_pid_max")" -lt "$need" ]; then
		load_old_pid_max=$(cat "$load_pid_max")
		echo "$need" > "$load_pid_max" || die "cannot raise kernel.pid_max to $need for the load"
	fi
}

# Every thread on the machine, kernel threads included: what a /proc walk finds.
nr_threads() { local a; read -r _ _ _ a _ < /proc/loadavg; echo "${a#*/}"; }

# The threads of the workload's children; without /proc/PID/task/TID/children
# (CONFIG_PROC_CHILDREN), the growth of the machine's count since $1.
load_threads() {
	local sum=0 c n
	[ -r "/proc/$workload_pid/task/$workload_pid/children" ] || { echo $(($(nr_threads) - $1 - 1)); return; } # less the workload itself
	for c in $(cat "/proc/$workload_pid/task/$workload_pid/children" 2>/dev/null); do
		n=$(awk '/^Threads:/ { print $2 }' "/proc/$c/status" 2>/dev/null) && sum=$((sum + ${n:-0}))
	done
	echo "$sum"
}

# load_start WORKLOAD PROCS THREADS BUSY OUT: starts the load (its pid in workload_pid, its output
# in OUT) and waits until its threads are there and a second more.
load_start() {
	local i before want=$(($2 * $3))
	before=$(nr_threads)
	"$1" idle "$2" "$3" "$4" > "$5" &
	workload_pid=$!
	for ((i = 0; ; i++)); do
		[ "$(load_threads "$before")" -ge "$want" ] && break
		kill -0 "$workload_pid" 2>/dev/null || die "the workload died"
		[ "$i" -lt $((600 + want / 200)) ] || die "the workload did not reach $want threads in $((60 + want / 2000)) s"
		sleep 0.1
	done
	sleep 1 # let the last threads settle into pause()
}

# The workload's processes, one pid a line.
load_children() {
	cat "/proc/$workload_pid/task/$workload_pid/children" 2>/dev/null || true
}

# Stops the load and puts the settings back; for the sourcing script's EXIT trap.
load_restore() {
	[ -z "$workload_pid" ] || stop_pid "$workload_pid"
	[ -z "$load_old_delayacct" ] || echo "$load_old_delayacct" > "$load_sysctl" || true
	[ -z "$load_old_pid_max" ] || echo "$load_old_pid_max" > "$load_pid_max" || true
}
