# bench/lock.sh — sourced by the benches: bench_lock takes the test suite's lock (tests/lib.sh's
# lock_global, the same file) for as long as the bench runs, so that a bench and a test never
# switch kernel.task_delayacct under each other or load the CPUs of each other's measurements.
# The lock is held by a helper process that ends with the bench, even when the bench is killed:
# no program the bench starts inherits it. The sourcing script defines die.

# bench_lock: waits for the lock (saying so when another run holds it), then returns.
bench_lock() {
	local file=${TMPDIR:-/tmp}/delaytop-tests.lock ready i
	ready=$(mktemp -u "${TMPDIR:-/tmp}/bench-lock.XXXXXX")
	flock -n "$file" true ||
		echo "${0##*/}: waiting for $file: tests or another bench are running" >&2
	# tail --pid: the holder ends within a second of the bench's end, however it ends
	flock "$file" sh -c ': > "$1"; exec tail --pid="$2" -f /dev/null' sh "$ready" $$ \
		< /dev/null > /dev/null 2>&1 &
	bench_lock_pid=$!
	for ((i = 0; ; i++)); do
		[ -e "$ready" ] && break
		kill -0 "$bench_lock_pid" 2>/dev/null || die "cannot take the lock $file"
		sleep 0.1
	done
	rm -f "$ready"
}
