# acct.sh — the accounting fields of struct taskstats beside the delays (I/O bytes and calls,
# context switches, CPU times, high-water marks), checked against what the workload did and what
# /proc says: a thread's totals against its own /proc/PID/task/TID files and the amounts it
# wrote, a process row against the sum of its thread rows and /proc/PID/io, the interval rates
# against the totals, and the CSV and text forms.
. "$top_srcdir/tests/lib.sh"

require_taskstats
require_cmd jq
lock_global
enable_delayacct

T=$TMPDIR_TEST
export LC_ALL=C
BYTES=1048576 # per thread: 16 writes of 64 KiB, read back in 17 reads; then 64 KiB written and cut

# The workers' files on a disk: on tmpfs nothing is read from a device (read_bytes stays 0).
D=$(disk_dir)
if [ -n "$D" ] && D=$(mktemp -d "$D/delaytop-acct.XXXXXX"); then
	EXTRA_DIRS="$EXTRA_DIRS $D"
else
	D=""
fi
"$WORKLOAD" io 2 "$BYTES" 2500 "${D:-$T}" >"$T/wl.out" 2>&1 9>&- &
pid=$!
track_pid "$pid"
for _ in $(seq 50); do
	grep -q ready "$T/wl.out" && break
	sleep 0.1
done
workers=$(ls "/proc/$pid/task" | grep -v -x "$pid" | sort -n | tr '\n' ' ')

# Three readers side by side until the workers are done, however long their disk takes: thread
# totals, process totals, thread rates.
"$DELAYTOP" -b -H --accumulate -p "$pid" -d 0.5 --format=json >"$T/threads.json" 2>"$T/threads.err" 9>&- &
dt1=$!
"$DELAYTOP" -b --accumulate -p "$pid" -d 0.5 --format=json >"$T/procs.json" 2>"$T/procs.err" 9>&- &
dt2=$!
"$DELAYTOP" -b -H -p "$pid" -d 0.5 --format=json >"$T/rates.json" 2>"$T/rates.err" 9>&- &
dt3=$!
track_pid "$dt1"
track_pid "$dt2"
track_pid "$dt3"

# /proc before the burst (at 2.5 s), after every reader's first reading: the workers sleep.
wait_first_reading "$dt1" && wait_first_reading "$dt2" && wait_first_reading "$dt3"
cp "/proc/$pid/io" "$T/io.before"
cp "/proc/$pid/stat" "$T/stat.before"
for t in $workers; do
	cp "/proc/$pid/task/$t/status" "$T/status.$t.before"
	cp "/proc/$pid/task/$t/stat" "$T/stat.$t.before"
done
# The workers' burst takes about 0.5 s and whatever their 4 MiB of disk I/O takes (a shared CI
# disk has taken over a second for one fsync): a minute at most. Then two more reports of each
# reader: the first of them may have begun its reading before "done", the second began after
# the first was printed, so it read the workers' final counters. A stop signal ends a reader
# after the report it is printing, with status 0.
started=$SECONDS
wait_until 60 grep -q done "$T/wl.out"
tap_ok $? "the workload's threads did their I/O within a minute" "after $((SECONDS - started)) s: $(cat "$T/wl.out")"
diag "the workers were done $((SECONDS - started)) s after the readers' first readings"
declare -A AT_DONE
for f in threads procs rates; do AT_DONE[$f]=$(reports_in "$T/$f.json"); done
read_after() {
	local f
	for f in threads procs rates; do
		[ "$(reports_in "$T/$f.json")" -ge $((AT_DONE[$f] + 2)) ] || return 1
	done
}
wait_until 10 read_after
r=$?
for p in "$dt1" "$dt2" "$dt3"; do kill -TERM "$p" 2>/dev/null; done
wait "$dt1"; s1=$?
wait "$dt2"; s2=$?
wait "$dt3"; s3=$?
[ "$r$s1$s2$s3" = 0000 ]
tap_ok $? "the three readers read twice more after the workers were done, and exit 0 when stopped" \
	"waited: $r; statuses $s1 $s2 $s3; reports when done: ${AT_DONE[*]}; $(head -2 "$T/threads.err" "$T/procs.err")"
cp "/proc/$pid/io" "$T/io.after"
cp "/proc/$pid/status" "$T/status.after"
cp "/proc/$pid/stat" "$T/stat.after"
for t in $workers; do
	cp "/proc/$pid/task/$t/status" "$T/status.$t.after"
	cp "/proc/$pid/task/$t/stat" "$T/stat.$t.after"
done

# near A B: A within 2% of B, or within the per-CPU slack. taskstats reads the memory counters
# without folding in what each CPU still holds (get_mm_counter), /proc/PID/status sums them: the
# two differ by that slack, up to the batch of pages (max(32, 2 x CPUs)) on each CPU for each of
# the three counters an RSS adds up (file, anonymous, shared memory): 768 KiB on 2 CPUs, which is
# more than 2% of the workers' 18 MiB.
NCPU=$(nproc)
SLACK=$((3 * (NCPU * 2 > 32 ? NCPU * 2 : 32) * NCPU * $(getconf PAGESIZE)))
near() {
	awk -v a="$1" -v b="$2" -v s="$SLACK" 'BEGIN { d = a - b; if (d < 0) d = -d
		exit !(a != "" && b > 0 && (d <= b * 0.02 || d <= s)) }'
}
field() { awk -v k="$1:" '$1 == k { print $2 }' "$2"; }
delta() { echo $(($(field "$1" "$3") - $(field "$1" "$2"))); }
last() { # last row of task id $2 (tid, or pid in process mode) in file $1
	jq -c -s --argjson id "$2" '[.[] | select(.type == "task" and ((.tid // .pid) == $id))] | last' "$1"
}

# Each worker: its totals are what it wrote, and what its own /proc files say it did.
n=0
for t in $workers; do
	n=$((n + 1))
	row=$(last "$T/threads.json" "$t")
	got=$(jq -r '[.wchar_bytes, .syscw_count, .rchar_bytes, .syscr_count, .cancelled_bytes] | join(" ")' <<<"$row")
	[ "$got" = "$((BYTES + 65536)) 17 $BYTES 17 65536" ]
	tap_ok $? "worker $n: wchar, syscw, rchar, syscr, cancelled are what it did: $((BYTES + 65536)) bytes in 17 writes, $BYTES in 17 reads, 64 KiB cut before the write-back" \
		"got '$got'; $row"
	rb=$(jq -r .read_bytes <<<"$row")
	if [ -n "$D" ]; then
		within "$rb" "$BYTES" $((BYTES + 262144))
		tap_ok $? "worker $n: read_bytes is the file it read back from $D (after dropping it from the cache)" "read_bytes '$rb'"
	else
		tap_skip "worker $n: read_bytes is the file it read back from the disk" "no disk-backed directory here (only tmpfs): nothing is read from a device"
	fi
	ivcsw=$(jq -r .ivcsw_count <<<"$row")
	[ "$ivcsw" = "$(delta nonvoluntary_ctxt_switches "$T/status.$t.before" "$T/status.$t.after")" ]
	tap_ok $? "worker $n: ivcsw_count equals its nonvoluntary_ctxt_switches in /proc" "ivcsw_count '$ivcsw'"
	vcsw=$(jq -r .vcsw_count <<<"$row")
	want=$(delta voluntary_ctxt_switches "$T/status.$t.before" "$T/status.$t.after")
	[ "$vcsw" = "$want" ] && [ "$want" -ge 20 ]
	tap_ok $? "worker $n: vcsw_count equals its voluntary_ctxt_switches in /proc ($want, 20 sleeps and more)" \
		"vcsw_count '$vcsw', /proc delta '$want'"
	utime=$(jq -r .utime_s <<<"$row")
	ticks=$(($(awk '{ print $14 }' "$T/stat.$t.after") - $(awk '{ print $14 }' "$T/stat.$t.before")))
	# (it spins 300 ms by the clock: on a busy machine it gets a part of that on a CPU)
	awk -v u="$utime" -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { exit !(t > 0 && u - t / hz < 0.05 && t / hz - u < 0.05) }'
	tap_ok $? "worker $n: utime_s agrees with the user ticks in its stat (busy 300 ms)" "utime_s '$utime', ticks $ticks"
	stime=$(jq -r .stime_s <<<"$row")
	ticks=$(($(awk '{ print $15 }' "$T/stat.$t.after") - $(awk '{ print $15 }' "$T/stat.$t.before")))
	awk -v u="$stime" -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { exit !(u - t / hz < 0.05 && t / hz - u < 0.05) }'
	tap_ok $? "worker $n: stime_s agrees with the system ticks in its stat" "stime_s '$stime', ticks $ticks"
	rss=$(jq -r .maxrss_bytes <<<"$row")
	near "$rss" "$(($(field VmHWM "$T/status.after") * 1024))"
	tap_ok $? "worker $n: maxrss_bytes is the process's VmHWM (within the kernel's per-CPU slack)" \
		"maxrss_bytes '$rss'; $(grep VmHWM "$T/status.after")"
	vm=$(jq -r .maxvm_bytes <<<"$row")
	near "$vm" "$(($(field VmPeak "$T/status.after") * 1024))"
	tap_ok $? "worker $n: maxvm_bytes is the process's VmPeak" "maxvm_bytes '$vm'; $(grep VmPeak "$T/status.after")"
	sum=$(jq -s --argjson id "$t" '[.[] | select(.type == "task" and .tid == $id) | .wchar_bytes_per_s * .interval_s] | add' \
		"$T/rates.json")
	within "$sum" $(((BYTES + 65536) * 99 / 100)) $(((BYTES + 65536) * 101 / 100))
	tap_ok $? "worker $n: its wchar_bytes_per_s times the intervals add up to the $((BYTES + 65536)) bytes" "sum $sum"
done

# The process row: the sum of its threads, and what /proc/PID/io says of the whole process.
prow=$(last "$T/procs.json" "$pid")
for f in wchar_bytes syscw_count rchar_bytes syscr_count write_bytes read_bytes cancelled_bytes; do
	p=$(jq -r ".$f" <<<"$prow")
	s=$(jq -s --argjson id "$pid" \
		"[.[] | select(.type == \"task\" and .pid == \$id)] | group_by(.tid) | map(last | .$f) | add" \
		"$T/threads.json")
	[ "$p" = "$s" ]
	tap_ok $? "the process row's $f is the sum of its thread rows'" "process '$p', threads '$s'"
done
w=$(jq -r .wchar_bytes <<<"$prow")
[ "$w" = "$(delta wchar "$T/io.before" "$T/io.after")" ] && [ "$w" -ge $((2 * BYTES)) ]
tap_ok $? "the process row's wchar_bytes is what /proc/PID/io's wchar grew by" "row '$w'; $(cat "$T/io.before" "$T/io.after" | tr '\n' ' ')"
wb=$(delta write_bytes "$T/io.before" "$T/io.after")
if [ "$wb" -gt 0 ]; then
	[ "$(jq -r .write_bytes <<<"$prow")" = "$wb" ]
	tap_ok $? "the process row's write_bytes (DISK WR) is what /proc/PID/io's write_bytes grew by" \
		"row $(jq -r .write_bytes <<<"$prow"), /proc $wb"
else
	tap_skip "the process row's write_bytes is what /proc/PID/io's write_bytes grew by" "the file system of ${D:-$T} accounts no dirtied bytes (write_bytes stayed 0)"
fi
[ "$(jq -r .maxrss_bytes <<<"$prow")" = "$(($(field VmHWM "$T/status.after") * 1024))" ] &&
	[ "$(jq -r .maxrss_bytes <<<"$prow")" -ge $((16 << 20)) ]
tap_ok $? "the process row's maxrss_bytes is its VmHWM (16 MiB touched and more)" "$prow"
u=$(jq -r .utime_s <<<"$prow")
# stat's fields 14, the whole process's user time in clock ticks, taken before the workers' burst
# and after the readings
ticks=$(($(awk '{ sub(/.*\) /, ""); print $12 }' "$T/stat.after") - $(awk '{ sub(/.*\) /, ""); print $12 }' "$T/stat.before")))
awk -v u="$u" -v t="$ticks" -v hz="$(getconf CLK_TCK)" \
	'BEGIN { exit !(t > 0 && u - t / hz < 0.05 && t / hz - u < 0.05) }'
tap_ok $? "the process row's utime_s counts both workers' 300 ms busy: the user ticks its stat grew by" \
	"utime_s '$u', ticks $ticks"
[ "$(jq -r '[.vcsw_count, .ivcsw_count] | join(" ")' <<<"$prow")" = " " ]
tap_ok $? "a process row's context switches are unavailable (null), not 0: the kernel keeps none per process" "$prow"

# CSV: the fields by name, one per header column.
"$DELAYTOP" -b -H -p "$pid" -d 0.3 -n 2 --format=csv >"$T/out.csv" 2>/dev/null
head -1 "$T/out.csv" | tr ',' '\n' | grep -x -c -E 'read_bytes_per_s|write_bytes_per_s|cancelled_bytes_per_s|rchar_bytes_per_s|wchar_bytes_per_s|syscr_per_s|syscw_per_s|vcsw_per_s|ivcsw_per_s|utime_pct|stime_pct|maxrss_bytes|maxvm_bytes' >"$T/count"
[ "$(cat "$T/count")" = 13 ]
tap_ok $? "CSV: the 13 accounting fields are named in the header" "$(head -1 "$T/out.csv")"
awk -F, 'NR == 1 { n = NF } NR > 1 && NF != n { bad = 1 } END { exit bad || NR < 2 }' "$T/out.csv"
tap_ok $? "CSV: every row has as many fields as the header" "$(head -3 "$T/out.csv")"

# Text: the columns by name, and unavailable shown as -.
"$DELAYTOP" -b -p "$pid" -d 0.3 -n 2 --columns=pid,read,write,vcsw,maxrss,command >"$T/out.txt" 2>&1
grep -q -E '^ +PID DISK RD DISK WR +VCSW +MAXRSS COMMAND' "$T/out.txt" &&
	grep -E "^ *$pid " "$T/out.txt" | tail -1 | awk '$4 == "-" { ok = 1 } END { exit !ok }'
tap_ok $? "text: --columns=pid,read,write,vcsw,maxrss,command titles, and a process's VCSW is -" "$(tail -3 "$T/out.txt")"

stop_pid "$pid"
done_testing
