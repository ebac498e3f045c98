# command_mode.sh — delaytop [options] -- COMMAND: every process the command starts is in the
# report (by name, however short it lived, orphans too), the report goes to stderr or -o FILE,
# --format json gives one JSON object, and delaytop exits with the command's status.
. "$top_srcdir/tests/lib.sh"

require_taskstats
require_cmd jq python3
lock_global
enable_delayacct

T=$TMPDIR_TEST
export LC_ALL=C

# is NAME GOT WANT: one test point comparing two strings.
is() {
	[ "$2" = "$3" ]
	tap_ok $? "$1" "expected '$3', got '$2'"
}

# jget FILE FILTER: one value from a JSON file, as jq -r prints it ("" when jq fails).
jget() {
	jq -r "$2" "$1" 2>/dev/null
}

# Processes the commands leave behind (not our children, so not tracked): stopped at the end.
LEFT_PIDS=""
kill_left() {
	local p
	for p in $LEFT_PIDS; do
		kill -TERM "$p" 2>/dev/null
	done
}
trap 'kill_left; cleanup' EXIT

# ---- the example from the man page: children by name, the exit status, an orphan ----
# The orphan gets 0.2 s to run exec before sh ends: caught earlier it is still an 'sh'.
cmd='sleep 0.2; ls / >/dev/null; cat /etc/hostname >/dev/null; (sleep 1 &); sleep 0.2; exit 7'
"$DELAYTOP" --format json -o "$T/run.json" -- sh -c "$cmd" >"$T/run.out" 2>"$T/run.err"
status=$?
is "the run exits with the command's status" "$status" 7
[ ! -s "$T/run.out" ] && [ ! -s "$T/run.err" ]
tap_ok $? "with -o FILE nothing goes to stdout or stderr" "stdout: $(head -c 300 "$T/run.out")" \
	"stderr: $(head -c 300 "$T/run.err")"
jq -e 'type == "object"' "$T/run.json" >/dev/null 2>&1
tap_ok $? "the report is one JSON object (jq)" "file: $(head -c 500 "$T/run.json")"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/run.json" 2>"$T/py.err"
tap_ok $? "the report parses as JSON in python3" "python3: $(tail -1 "$T/py.err")"
[ "$(wc -l <"$T/run.json")" -eq 1 ]
tap_ok $? "the JSON report is one line" "got $(wc -l <"$T/run.json") lines"
is "\"status\" is 7" "$(jget "$T/run.json" .status)" 7
is "\"signal\" is null" "$(jget "$T/run.json" .signal)" null
is "\"command\" is the command's argv" "$(jget "$T/run.json" '.command | join("|")')" "sh|-c|$cmd"
names=$(jget "$T/run.json" '[.by_command[].command] | sort | join(" ")')
for name in sh sleep ls cat; do
	jq -e --arg n "$name" 'any(.by_command[]; .command == $n and .processes >= 1)' "$T/run.json" >/dev/null
	tap_ok $? "by_command lists '$name'" "by_command names: $names"
done
is "by_command counts 3 sleep processes (one an orphan still running)" \
	"$(jget "$T/run.json" '[.by_command[] | select(.command == "sleep") | .processes] | add')" 3
running=$(jget "$T/run.json" .running)
[ "${running:-0}" -ge 1 ]
tap_ok $? "the orphan 'sleep 1' that outlived sh is counted as still running" "running: $running"
procs=$(jget "$T/run.json" .processes)
within "${procs:-0}" 6 7
tap_ok $? "processes counts sh, its subshell and the 5 commands it ran (6 or 7)" "expected 6..7, got '$procs'" \
	"by_command: $(jget "$T/run.json" '[.by_command[] | "\(.command):\(.processes)"] | join(" ")')"
sum=$(jget "$T/run.json" '[.by_command[].processes] | add')
is "the by_command process counts add up to processes" "$sum" "$procs"
is "no exit records lost" "$(jget "$T/run.json" .exits_lost)" 0
is "no undecided records" "$(jget "$T/run.json" .undecided)" 0

# ---- orphans: one ends during the run (an exit record whose parent is delaytop), one outlives it ----
ln -s "$WORKLOAD" "$T/orphan-ends"
ln -s "$WORKLOAD" "$T/orphan-lives"
"$DELAYTOP" --format json -o "$T/orph.json" -- sh -c '
	("$1/orphan-ends" sleep 1 &)
	("$1/orphan-lives" sleep 4 & echo $! >"$1/lives.pid")
	sleep 1.5' sh "$T" 2>"$T/orph.err"
status=$?
LEFT_PIDS="$LEFT_PIDS $(cat "$T/lives.pid" 2>/dev/null)"
is "the orphans run exits with status 0" "$status" 0
by=$(jget "$T/orph.json" '[.by_command[] | "\(.command):\(.processes)"] | join(" ")')
is "an orphan that ended during the run (reparented to delaytop) is counted" \
	"$(jget "$T/orph.json" '[.by_command[] | select(.command == "orphan-ends") | .processes] | add')" 1
is "an orphan still alive at the end is counted" \
	"$(jget "$T/orph.json" '[.by_command[] | select(.command == "orphan-lives") | .processes] | add')" 1
is "\"running\" counts the live orphan" "$(jget "$T/orph.json" .running)" 1
diag "orphans run: by_command $by"

# ---- a command killed by a signal ----
"$DELAYTOP" --format json -o "$T/sig.json" -- sh -c 'kill -TERM $$; sleep 5' 2>"$T/sig.err"
status=$?
is "a command killed by SIGTERM gives status 128+15" "$status" 143
is "\"signal\" is 15" "$(jget "$T/sig.json" .signal)" 15
is "\"status\" is 143" "$(jget "$T/sig.json" .status)" 143
"$DELAYTOP" -- sh -c 'kill -KILL $$' >"$T/sig9.out" 2>"$T/sig9.err"
status=$?
is "a command killed by SIGKILL gives status 137" "$status" 137
grep -q "killed by signal 9" "$T/sig9.err"
tap_ok $? "the text report says the command was killed by signal 9" "stderr: $(head -3 "$T/sig9.err")"

# ---- a missing command ----
"$DELAYTOP" -- no-such-command-dt42 >"$T/miss.out" 2>"$T/miss.err"
status=$?
is "a command not found gives status 127" "$status" 127
grep -q "no-such-command-dt42" "$T/miss.err" && grep -qi "cannot run" "$T/miss.err"
tap_ok $? "a message names the missing command" "stderr: $(head -3 "$T/miss.err")"
"$DELAYTOP" --format json -o "$T/miss.json" -- /nonexistent/dir/cmd-dt42 2>"$T/miss2.err"
status=$?
is "a missing path gives status 127" "$status" 127
grep -q "/nonexistent/dir/cmd-dt42" "$T/miss2.err"
tap_ok $? "the message names the missing path" "stderr: $(cat "$T/miss2.err")"
is "the JSON report of a missing command says status 127" "$(jget "$T/miss.json" .status)" 127
# delaytop starts the command with posix_spawn: no copy of delaytop runs in the child, so nothing
# ran at all (a fork would count itself as a process, ended with 127)
is "... and counts no process: nothing ran" "$(jget "$T/miss.json" '[.processes, .threads, (.by_command | length)] | join(" ")')" "0 0 0"
printf 'echo ran >"$1"\n' >"$T/noexec"
chmod 644 "$T/noexec"
"$DELAYTOP" -- "$T/noexec" "$T/noexec.out" >/dev/null 2>"$T/noexec.err"
status=$?
[ "$status" = 126 ] && [ ! -e "$T/noexec.out" ] && grep -q "cannot run '$T/noexec': Permission denied" "$T/noexec.err"
tap_ok $? "a file that may not be run gives status 126 and 'cannot run ...: Permission denied'" \
	"status $status: $(head -2 "$T/noexec.err")"
chmod 755 "$T/noexec"
"$DELAYTOP" --format json -o "$T/script.json" -- "$T/noexec" "$T/noexec.out" 2>"$T/script.err"
status=$?
[ "$status" = 0 ] && [ "$(cat "$T/noexec.out" 2>/dev/null)" = ran ] && [ "$(jget "$T/script.json" .processes)" = 1 ]
tap_ok $? "a script without a #! line runs through /bin/sh, as execvp runs it" \
	"status $status, output '$(cat "$T/noexec.out" 2>/dev/null)', processes $(jget "$T/script.json" .processes): $(head -2 "$T/script.err")"
# The command's signals: the mask delaytop was given, SIGINT, SIGQUIT and SIGPIPE at their default
# (delaytop ignores them), the rest as given; glibc's own signals 32 and 33 aside (posix_spawn's
# child ignores them, fork's had glibc's handlers, reset by the exec).
sigs() { # the blocked and ignored signals (hex masks) of "$@ grep" reading its own status
	"$@" grep -E '^Sig(Blk|Ign):' /proc/self/status 2>/dev/null | awk '{ printf "%s ", $2 }'
}
read -r blk0 ign0 <<<"$(sigs)"
read -r blk ign <<<"$(sigs "$DELAYTOP" -o "$T/sigs.txt" --)"
ign=$(printf '%016x' $((0x${ign:-0} & ~(3 << 31))))
want_ign=$(printf '%016x' $((0x${ign0:-0} & ~((1 << 1) | (1 << 2) | (1 << 12) | (3 << 31)))))
[ -n "$blk0" ] && [ "$blk" = "$blk0" ] && [ "$ign" = "$want_ign" ]
tap_ok $? "the command gets the signal mask delaytop was given, and SIGINT, SIGQUIT, SIGPIPE at their default" \
	"blocked $blk (given $blk0), ignored $ign (expected $want_ign)"

# ---- the text report goes to stderr ----
"$DELAYTOP" -- sh -c 'sleep 0.1; exit 3' >"$T/text.out" 2>"$T/text.err"
status=$?
is "text report run exits with status 3" "$status" 3
[ ! -s "$T/text.out" ]
tap_ok $? "the text report does not go to stdout" "stdout: $(head -c 300 "$T/text.out")"
grep -qF "'sh -c sleep 0.1; exit 3'" "$T/text.err"
tap_ok $? "the text report on stderr names the command" "stderr: $(head -2 "$T/text.err")"
grep -q "exited with status 3" "$T/text.err"
tap_ok $? "the text report on stderr names the exit status" "stderr: $(head -2 "$T/text.err")"
grep -qE '^sleep +1 +1 ' "$T/text.err"
tap_ok $? "the text report lists the child 'sleep' by name" "stderr: $(cat "$T/text.err")"
"$DELAYTOP" -o "$T/text.file" -- sh -c 'exit 4' >"$T/textf.out" 2>"$T/textf.err"
status=$?
is "-o FILE run exits with status 4" "$status" 4
grep -q "exited with status 4" "$T/text.file" && [ ! -s "$T/textf.err" ]
tap_ok $? "-o FILE gets the text report, stderr stays empty" "file: $(head -2 "$T/text.file" 2>/dev/null)" \
	"stderr: $(head -2 "$T/textf.err")"

# ---- exec from a thread other than the leader: still one process ----
# The kernel gives the exec'ing thread the leader's pid; the old leader's exit record carries that
# pid too, and must not count as a process of its own.
true_bin=$(type -P true)
"$DELAYTOP" --format json -o "$T/texec.json" -- "$WORKLOAD" thread-exec "$true_bin" 2>"$T/texec.err"
status=$?
by=$(jget "$T/texec.json" '[.by_command[] | "\(.command):\(.processes)/\(.threads)"] | join(" ")')
is "exec from a thread: the run exits with status 0" "$status" 0
is "exec from a non-leader thread of a 3-thread process counts 1 process" \
	"$(jget "$T/texec.json" .processes)" 1
is "... under the name it ended with ('true')" \
	"$(jget "$T/texec.json" '[.by_command[] | select(.command == "true") | .processes] | add')" 1
diag "exec from a thread: by_command $by"
# the same, the exec'd program still running when the command ends
"$DELAYTOP" --format json -o "$T/texec2.json" -- sh -c '"$1" thread-exec "$3" 1 & echo $! >"$2"; sleep 0.4' \
	sh "$WORKLOAD" "$T/texec2.pid" "$(type -P sleep)" 2>"$T/texec2.err"
LEFT_PIDS="$LEFT_PIDS $(cat "$T/texec2.pid" 2>/dev/null)"
by=$(jget "$T/texec2.json" '[.by_command[] | "\(.command):\(.processes)"] | join(" ")')
is "exec from a thread, still running at the end: sh, sleep 0.4 and the exec'd sleep are 3 processes" \
	"$(jget "$T/texec2.json" .processes)" 3
is "... and 1 of them is still running" "$(jget "$T/texec2.json" .running)" 1
diag "exec from a thread, still running: by_command $by"

# ---- usage errors ----
"$DELAYTOP" -- >"$T/u1.out" 2>"$T/u1.err"
is "'delaytop --' without a command exits with status 2" "$?" 2
"$DELAYTOP" -o "$T/u2.file" >"$T/u2.out" 2>"$T/u2.err"
is "'-o FILE' without a command exits with status 2" "$?" 2
[ ! -e "$T/u2.file" ]
tap_ok $? "'-o FILE' without a command does not create FILE"
"$DELAYTOP" -o "$T/u3.file" -- >"$T/u3.out" 2>"$T/u3.err"
is "'-o FILE --' without a command exits with status 2" "$?" 2

# Options that choose, order or pace rows do not apply to a report of one run: refused, not ignored.
for opt in -H "-s io" -a "-p 1" "-n 2" "-d 2" --reverse --accumulate; do
	# shellcheck disable=SC2086
	"$DELAYTOP" $opt -- sh -c 'echo >"$1"' sh "$T/ran" >"$T/u4.out" 2>"$T/u4.err"
	st=$?
	[ "$st" -eq 2 ] && [ ! -e "$T/ran" ] && grep -qF -- "'${opt%% *}'" "$T/u4.err"
	tap_ok $? "'$opt -- COMMAND' exits with status 2 naming ${opt%% *}, without running the command" \
		"status $st, stderr: $(head -2 "$T/u4.err")"
	rm -f "$T/ran"
done

# ---- CSV: the run's row first, with its status; the same column count everywhere ----
"$DELAYTOP" --format csv -- sh -c 'sleep 0.1; ls / >/dev/null; exit 5' >/dev/null 2>"$T/run.csv"
status=$?
is "CSV run exits with status 5" "$status" 5
csv=$(python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0] if rows else []
widths = sorted(set(len(r) for r in rows))
run = dict(zip(h, rows[1])) if len(rows) > 1 else {}
names = sorted(r[0] for r in rows[2:])
print(widths, run.get("command"), run.get("status"), run.get("exits_lost"), " ".join(names))
' "$T/run.csv" 2>&1)
[[ "$csv" =~ ^\[[0-9]+\]\ \(all\)\ 5\ 0\ .*ls.*sleep ]]
tap_ok $? "CSV: one column count, a first row (all) with status 5 and exits_lost 0, then ls and sleep" \
	"got: $csv" "file: $(head -3 "$T/run.csv")"

# ---- with kernel.task_delayacct at 0 only CPU delay is measured: the rest is null, with a warning ----
set_sysctl kernel.task_delayacct 0 || skip_all "cannot set kernel.task_delayacct"
"$DELAYTOP" --format json -o "$T/off.json" -- sh -c 'ls / >/dev/null' 2>"$T/off.err"
st=$?
enable_delayacct
got=$(jq -c '[.delay.cpu.count > 0, .delay.io.total_s, .delay.io.count, .delay.wpcopy.total_s,
	(.by_command[] | select(.command == "ls") | .delay.io.total_s)]' "$T/off.json" 2>&1)
is "task_delayacct=0: CPU delay counted, io and wpcopy null (run and by_command)" "$st $got" "0 [true,null,null,null,null]"
grep -q "kernel.task_delayacct" "$T/off.err"
tap_ok $? "task_delayacct=0: a warning names the sysctl" "stderr: $(head -2 "$T/off.err")"

# ---- the switch goes off during the run: a sum that leaves out tasks says it is partial ----
# The first ls ends with the switch on (its I/O delay counted); then the command switches it off
# and runs a second ls, forked while it is off: its I/O delay is unknown, so the run's and ls's
# I/O sums leave it out and say so. In the first run the switch stayed on: nothing was left out,
# unless a test elsewhere switched it during a task's life (that task's kinds are then null): a
# kind's sum is partial exactly when some command's is unknown (or partial) and another's known.
got=$(jq -c '[.partial, .partial_reason, [.delay[] | .partial]]' "$T/run.json")
want=$(jq -c '. as $r | [.delay | keys_unsorted[] | . as $k | $r |
	any(.by_command[]; .delay[$k].total_s == null or .delay[$k].partial) and
	any(.by_command[]; .delay[$k].total_s != null)] as $p |
	[any($p[]; .), (if any($p[]; .) then "task_delayacct_off" else null end), $p]' "$T/run.json")
[ "$got" = "$want" ] && [ -n "$got" ]
tap_ok $? "the first run: a kind's sum is partial only where some command's is unknown and another's known" \
	"expected $want, got $got" \
	"by_command: $(jq -c '[.by_command[] | [.command, .processes, .delay.io.total_s, .delay.io.partial]]' "$T/run.json")"
partcmd='ls / >/dev/null; sleep 0.6; sysctl -q -w kernel.task_delayacct=0; ls / >/dev/null'
"$DELAYTOP" --format json -o "$T/part.json" -- sh -c "$partcmd" 2>"$T/part.err"
st=$?
enable_delayacct
got=$(jq -c '[.partial, .partial_reason, (.delay.io.total_s | type), .delay.io.partial, .delay.cpu.partial,
	(.by_command[] | select(.command == "ls") | [.processes, .partial, .delay.io.partial])]' "$T/part.json" 2>&1)
is "switch off during the run: JSON marks the run's and ls's I/O sums partial, CPU complete" \
	"$st $got" '0 [true,"task_delayacct_off","number",true,false,[2,true,true]]'
"$DELAYTOP" -o "$T/part.txt" -- sh -c "$partcmd" 2>"$T/part.err"
enable_delayacct
io=$(awk '$1 == "IO" { print $2, $3; exit }' "$T/part.txt")
cpu=$(awk '$1 == "CPU" { print $2; exit }' "$T/part.txt")
total=$(awk '$1 == "TOTAL" && NF == 3 { print $2; exit }' "$T/part.txt")
notes=$(grep -c "^note: a sum marked '+'.*kernel.task_delayacct was 0" "$T/part.txt")
[[ $io =~ ^[0-9.]+\+\ [0-9]+\+$ ]] && [[ $cpu =~ ^[0-9.]+$ ]] && [[ $total =~ ^[0-9.]+\+$ ]] && [ "$notes" = 1 ]
tap_ok $? "switch off during the run: the text marks IO's total and waits and the TOTAL with '+', not CPU, with one note" \
	"IO '$io', CPU '$cpu', TOTAL '$total', notes $notes" "$(head -12 "$T/part.txt")"
"$DELAYTOP" --format csv -o "$T/part.csv" -- sh -c "$partcmd" 2>"$T/part.err"
enable_delayacct
got=$(python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
run = dict(zip(rows[0], rows[1]))
print(rows[0][-1], "io" in run["partial_kinds"].split(), "cpu" in run["partial_kinds"].split())
' "$T/part.csv" 2>&1)
is "switch off during the run: CSV's last column 'partial_kinds' of the (all) row names io, not cpu" "$got" \
	"partial_kinds True False"
"$DELAYTOP" --format html -o "$T/part.html" -- sh -c "$partcmd" 2>"$T/part.err"
enable_delayacct
grep -q '<th>Partial sums</th><td>a number marked .*+.* leaves out tasks' "$T/part.html" &&
	! grep -A3 'id="top-tasks-cpu"' "$T/part.html" | grep -q '[0-9]+</td>'
tap_ok $? "switch off during the run: the HTML page says once what '+' marks, and CPU's numbers have none" \
	"facts: $(grep -o '<th>[^<]*</th><td>[^<]*' "$T/part.html" | tail -3)"

# ---- a pid reused by a stranger after a member ended is not the member ----
# The command starts two short members, then waits. Once they have ended (and 2 s have passed,
# so that start times tell the processes apart), unrelated processes outside the command get
# their pids: one forks children that end while it lives, the other is still alive when the
# command ends. None of them descends from the command.
ln -s "$WORKLOAD" "$T/stranger-a"
ln -s "$WORKLOAD" "$T/stranger-b"
"$DELAYTOP" --format json -o "$T/reuse.json" -- sh -c '
	sleep 0.1 & echo $! >"$1/m1.pid"
	sleep 0.1 & echo $! >"$1/m2.pid"
	wait
	sleep 4.5' sh "$T" 2>"$T/reuse.err" &
dt=$!
track_pid "$dt"
sleep 3
m1=$(cat "$T/m1.pid" 2>/dev/null)
m2=$(cat "$T/m2.pid" 2>/dev/null)
"$T/stranger-b" at-pid "$m2" sleep 4 >"$T/sb.out" 2>/dev/null
got2=$(head -1 "$T/sb.out")
LEFT_PIDS="$LEFT_PIDS $got2"
got1=$("$T/stranger-a" at-pid "$m1" forks 10 0 20 2>/dev/null | head -1)
wait "$dt"
if [ "$got1" = "$m1" ] && [ "$got2" = "$m2" ]; then
	by=$(jget "$T/reuse.json" '[.by_command[] | "\(.command):\(.processes)"] | join(" ")')
	jq -e 'all(.by_command[]; .command != "stranger-a")' "$T/reuse.json" >/dev/null
	tap_ok $? "children of a stranger that reused a member's pid are not counted" \
		"expected no 'stranger-a' in by_command, got: $by"
	jq -e 'all(.by_command[]; .command != "stranger-b")' "$T/reuse.json" >/dev/null
	tap_ok $? "a live stranger that reused a member's pid is not counted as running" \
		"expected no 'stranger-b' in by_command, got: $by" "running: $(jget "$T/reuse.json" .running)"
	is "the run counts its own 4 processes (sh and 3 sleeps)" \
		"$(jget "$T/reuse.json" .processes)" 4
else
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N # SKIP could not give strangers the pids $m1 $m2 (got '$got1' '$got2')"
fi
kill_left

# The bytes and switches per command, against what the command did: dd writes 1 MiB in 16 writes
# of 64 KiB to a new file (page-cache bytes dirtied for the disk too, on a file system that counts
# them), reading as much from /dev/zero.
"$DELAYTOP" --format=json -o "$T/io.json" -- dd if=/dev/zero of="$T/io.out" bs=64k count=16 status=none
got=$(jq -r '.by_command[] | select(.command == "dd") | [.wchar_bytes, .rchar_bytes >= 1048576, (.vcsw_count | type)] | join(" ")' "$T/io.json")
[ "$got" = "1048576 true number" ]
tap_ok $? "by_command: dd wrote 1048576 bytes (wchar_bytes), read as much, and its switches are a number" \
	"got '$got'; $(jq -c '.by_command' "$T/io.json" | head -c 600)"
wb=$(jq -r '.write_bytes' "$T/io.json")
# (a page or a few more: creating the file dirties a directory block in dd's name too)
within "$wb" 1048576 $((1048576 + 65536)) || [ "$wb" = 0 ]
tap_ok $? "the run's write_bytes is the 1 MiB dd dirtied, and a few pages of metadata (or 0 where the file system counts none)" \
	"write_bytes '$wb'"
"$DELAYTOP" -o "$T/io.txt" -- dd if=/dev/zero of="$T/io.out" bs=64k count=16 status=none
grep -E '^COMMAND +DISK RD +DISK WR +CANCEL +RCHAR +WCHAR +VCSW +IVCSW$' "$T/io.txt" >/dev/null &&
	grep -E '^dd ' "$T/io.txt" | tail -1 | awk '$6 == 1048576 { ok = 1 } END { exit !ok }'
tap_ok $? "the text report's I/O table has dd's WCHAR 1048576" "$(tail -6 "$T/io.txt")"

done_testing
