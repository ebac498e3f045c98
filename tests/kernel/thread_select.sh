#!/bin/bash
# thread_select.sh — -p with a thread id that is not its process's main thread. In process mode
# the id selects its process, once, and delaytop says so; with -H it selects just that thread,
# while a process id selects all the process's threads.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq
require_taskstats
lock_global # the workload's threads spin on CPU 1

start_workload threads 3 1; P=$WORKLOAD_PID
for _ in $(seq 50); do # the 3 threads exist
	[ "$(ls "/proc/$P/task" 2>/dev/null | wc -l)" -ge 4 ] && break
	sleep 0.05
done
[ "$(ls "/proc/$P/task" | wc -l)" -eq 4 ] || skip_all "workload threads 3 1 did not start 3 threads"
T=$(ls "/proc/$P/task" | sort -n | grep -vx "$P" | head -1)

task_rows() { jq -c 'select(.type == "task")' "$1"; }

# ---- process mode: -p PID,TID and -p TID,TID give one row of the process ----
"$DELAYTOP" -b -n 1 -d 0.3 --format json -p "$P,$T" >"$TMPDIR_TEST/both.json" 2>"$TMPDIR_TEST/both.err"
tap_ok $? "delaytop -b -p PID,TID exits 0" "$(head -2 "$TMPDIR_TEST/both.err")"
rows=$(task_rows "$TMPDIR_TEST/both.json" | jq -r '"\(.pid)/\(.tid)"' | tr '\n' ' ')
[ "$rows" = "$P/null " ]
tap_ok $? "-p $P,$T (a thread of $P): one process row, pid $P" "expected '$P/null ', got '$rows'"
grep -q "$T is a thread of process $P: showing the process" "$TMPDIR_TEST/both.err"
tap_ok $? "-p with a thread id says that it shows the thread's process" \
	"stderr: $(tr '\n' ' ' <"$TMPDIR_TEST/both.err")"
n=$(grep -c "is a thread of process" "$TMPDIR_TEST/both.err")
[ "$n" -eq 1 ]
tap_ok $? "the notice comes once" "expected 1, got $n"

"$DELAYTOP" -b -n 1 -d 0.3 --format json -p "$T,$T" >"$TMPDIR_TEST/tt.json" 2>/dev/null
rows=$(task_rows "$TMPDIR_TEST/tt.json" | jq -r '"\(.pid)/\(.tid)"' | tr '\n' ' ')
[ "$rows" = "$P/null " ]
tap_ok $? "-p $T,$T: one process row, pid $P" "expected '$P/null ', got '$rows'"

"$DELAYTOP" -b -n 1 -d 0.3 --format json -p "$P,$P" >"$TMPDIR_TEST/pp.json" 2>"$TMPDIR_TEST/pp.err"
rows=$(task_rows "$TMPDIR_TEST/pp.json" | jq -r '"\(.pid)/\(.tid)"' | tr '\n' ' ')
[ "$rows" = "$P/null " ] && ! grep -q "is a thread of" "$TMPDIR_TEST/pp.err"
tap_ok $? "-p $P,$P: one process row and no notice (a main thread is its process)" \
	"expected '$P/null ', got '$rows'; stderr: $(tr '\n' ' ' <"$TMPDIR_TEST/pp.err")"

# ---- thread mode: -H -p TID is that thread; -H -p PID,TID all threads once ----
"$DELAYTOP" -b -H -n 1 -d 0.3 --format json -p "$T" >"$TMPDIR_TEST/t.json" 2>"$TMPDIR_TEST/t.err"
rows=$(task_rows "$TMPDIR_TEST/t.json" | jq -r '"\(.pid)/\(.tid)"' | tr '\n' ' ')
[ "$rows" = "$P/$T " ]
tap_ok $? "-H -p $T: exactly that thread's row (pid $P, tid $T)" "expected '$P/$T ', got '$rows'"
! grep -q "is a thread of" "$TMPDIR_TEST/t.err"
tap_ok $? "-H -p TID: no notice, the thread is what is shown" "stderr: $(tr '\n' ' ' <"$TMPDIR_TEST/t.err")"

"$DELAYTOP" -b -H -n 1 -d 0.3 --format json -p "$P,$T" >"$TMPDIR_TEST/pt.json" 2>/dev/null
got=$(task_rows "$TMPDIR_TEST/pt.json" | jq -r '.tid' | sort -n | tr '\n' ' ')
want=$(ls "/proc/$P/task" | sort -n | tr '\n' ' ')
[ "$got" = "$want" ]
tap_ok $? "-H -p $P,$T: every thread of $P once" "expected tids: $want" "got tids:      $got"

stop_pid "$P"
done_testing
