#!/bin/bash
# unprivileged.sh — delaytop run as nobody without capabilities: it says once on stderr that
# taskstats needs CAP_NET_ADMIN and how to fix it, exits 0, and keeps working from /proc: CPU
# delay from schedstat, I/O delay from stat field 42, and every other kind unavailable (null in
# JSON, "-" in text), never 0.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq setpriv taskset flock
require_taskstats

# nobody must be able to run the binary: from the build dir if it can, else from a 0755 copy.
setup_nobody

lock_global
enable_delayacct

start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID

# An O_DIRECT writer on CPU 0 (away from the pair), if a disk-backed directory exists, so that
# the I/O column is shown to carry a real value and not just a placeholder.
W=""
for d in /var/tmp /tmp; do
	case $(stat -f -c %T "$d" 2>/dev/null) in tmpfs | ramfs | "") continue ;; esac
	wdir=$(mktemp -d "$d/delaytop-unpriv-io.XXXXXX") || continue
	EXTRA_DIRS="$EXTRA_DIRS $wdir"
	start_workload odirect "$wdir/data"; W=$WORKLOAD_PID
	taskset -p -c 0 "$W" >/dev/null 2>&1
	break
done
sleep 0.3
if [ -n "$W" ] && ! kill -0 "$W" 2>/dev/null; then W=""; fi
PIDS=$A,$B${W:+,$W}

follow_delaytop "$TMPDIR_TEST/out.json" "$TMPDIR_TEST/err" "$A" "$B" $W -- \
	"${NOBODY[@]}" "$DT" -b -n 2 -d 0.5 --format json -p "$PIDS"
rc=$DT_STATUS
tap_ok "$rc" "unprivileged delaytop exits 0" "expected 0, got $rc" "stderr: $(head -3 "$TMPDIR_TEST/err" | tr '\n' ' ')"

n=$(grep -c CAP_NET_ADMIN "$TMPDIR_TEST/err")
[ "$n" -eq 1 ]
tap_ok $? "stderr says once that CAP_NET_ADMIN is missing" "expected 1 line naming CAP_NET_ADMIN, got $n:" \
	"$(tr '\n' '|' <"$TMPDIR_TEST/err")"
grep CAP_NET_ADMIN "$TMPDIR_TEST/err" | grep -q -E 'setcap|as root'
tap_ok $? "the message names the fix (run as root, or setcap)" "got: $(tr '\n' '|' <"$TMPDIR_TEST/err")"

lim=$(jq -r 'select(.type == "psi") | .limited' "$TMPDIR_TEST/out.json" | sort -u | tr '\n' ' ')
[ "$lim" = "true " ]
tap_ok $? "the reports say they are limited" "expected limited true in every psi line, got: $lim"

last() { jq -c --argjson p "$1" 'select(.type == "task" and .pid == $p)' "$TMPDIR_TEST/out.json" | tail -1; }
for who in A B; do
	pid=${!who}
	row=$(last "$pid")
	cpu=$(jq -r '.delay.cpu.pct' <<<"${row:-null}")
	agrees_with_kernel "$cpu" "$(jq -r '.interval_s' <<<"${row:-null}")" wait 2 "$pid"
	tap_ok $? "spinner $who's CPU delay is present without privileges: the run-queue wait the kernel counted" "$AGREED"
	io=$(jq -r '.delay.io.pct | type' <<<"${row:-null}")
	[ "$io" = number ]
	tap_ok $? "spinner $who's io pct is present (from /proc stat field 42)" "expected a number, got $io"
done
# The writer's I/O delay: in each report what its stat field 42 counted over the interval, and not
# 0 in a report where that count surely grew (its least, from just after one reading to just
# before the next, is above 0: a wait ended in it). A wait counts only when it ends, so on a slow
# disk (an fsync of over a second was seen in CI) a report of 0.5 s can hold no end and show 0:
# two more reports as the writer's only task while none held one, 10 reports at most.
if [ -n "$W" ]; then
	ended=0 runs=1
	# writer_reports R FILE: each report of FILE (run R's) held against the kernel's count
	writer_reports() {
		local k=0 iv io range lo
		while read -r iv io; do
			k=$((k + 1))
			range=$(counted io "$k" "$W")
			lo=${range%% *}
			agrees_with_kernel "$io" "$iv" io "$k" "$W"
			tap_ok $? "run $1, report $k: the O_DIRECT writer's io pct is the block-I/O delay in its stat field 42" "$AGREED"
			if awk -v lo="${lo:-0}" 'BEGIN { exit !(lo > 0) }'; then
				ended=$((ended + 1))
				within "$io" 0.001 1e9
				tap_ok $? "run $1, report $k: a wait of the writer's ended in it (the kernel counted ${range/ /..} ms): its io pct is not 0" \
					"got '$io'"
			else
				diag "run $1, report $k: no wait of the writer's surely ended in it (the kernel counted ${range/ /..} ms); io pct '$io'"
			fi
		done < <(jq -r --argjson p "$W" 'select(.type == "task" and .pid == $p) | "\(.interval_s) \(.delay.io.pct)"' "$2")
	}
	writer_reports 1 "$TMPDIR_TEST/out.json"
	while [ "$ended" = 0 ] && [ "$runs" -lt 5 ]; do
		runs=$((runs + 1))
		follow_delaytop "$TMPDIR_TEST/w$runs.json" "$TMPDIR_TEST/w$runs.err" "$W" -- \
			"${NOBODY[@]}" "$DT" -b -n 2 -d 0.5 --format json -p "$W"
		tap_ok "$DT_STATUS" "run $runs (the writer alone): unprivileged delaytop exits 0" "got $DT_STATUS"
		writer_reports "$runs" "$TMPDIR_TEST/w$runs.json"
	done
	[ "$ended" -gt 0 ]
	tap_ok $? "a report of the writer's saw one of its waits end ($ended in $runs runs of 2)" \
		"none in $runs runs ($runs s of reports): its writes did not end (a disk stalled?)"
fi

# Every other kind, every metric, every row: null.
not_null=$(jq -r 'select(.type == "task") | .pid as $p | .delay
	| to_entries[] | select(.key != "cpu" and .key != "io") | .key as $k
	| .value | to_entries[] | select(.value != null) | "\($p) \($k).\(.key)=\(.value)"' "$TMPDIR_TEST/out.json" |
	head -5 | tr '\n' ' ')
kinds=$(jq -r 'select(.type == "task") | .delay | keys[]' "$TMPDIR_TEST/out.json" | sort -u | tr '\n' ' ')
[ "$kinds" = "compact cpu io irq reclaim swapin thrashing wpcopy " ] && [ -z "$not_null" ]
tap_ok $? "swapin/reclaim/thrashing/compact/wpcopy/irq are null in JSON (unavailable, never 0)" \
	"kinds present: $kinds" "not null: ${not_null:-none}"

# Text: the same cells are "-". Columns are found by their titles.
"${NOBODY[@]}" "$DT" -b -n 1 -d 0.5 -p "$A,$B" >"$TMPDIR_TEST/out.txt" 2>/dev/null
cells=$(awk '
	/^ *PID +USER/ { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; next }
	hdr && NF > 0 && $1 ~ /^[0-9]+$/ {
		printf "%s:%s/%s", $1, $col["CPU"], $col["IO"]
		n = split("SWAP RECLAIM THRASH COMPACT WPCOPY IRQ", k, " ")
		for (j = 1; j <= n; j++) printf " %s", $col[k[j]]
		printf "\n"
	}' "$TMPDIR_TEST/out.txt")
rows=$(grep -c . <<<"$cells")
bad=$(awk '{ for (i = 2; i <= NF; i++) if ($i != "-") { print; next } } $1 ~ /:-\// || $1 ~ /\/-$/ { print }' <<<"$cells" | tr '\n' ' ')
[ -n "$cells" ] && [ "$rows" -eq 2 ] && [ -z "$bad" ]
tap_ok $? "text: SWAP RECLAIM THRASH COMPACT WPCOPY IRQ cells are '-', CPU and IO are numbers" \
	"expected 2 rows 'pid:cpu/io - - - - - -', got: $(tr '\n' '|' <<<"$cells")"
diag "text cells (pid:cpu/io swap reclaim thrash compact wpcopy irq): $(tr '\n' '|' <<<"$cells")"

# Since the start (--accumulate): /proc gives an I/O delay total but no count, so the total is a
# number and the count and average are null, never 0.
"${NOBODY[@]}" "$DT" -b -n 1 -d 0.5 --format json --accumulate -p "$A" >"$TMPDIR_TEST/acc.json" 2>/dev/null
got=$(jq -c --argjson p "$A" 'select(.type == "task" and .pid == $p) | [(.delay.cpu.total_s | type),
	(.delay.cpu.count | type), (.delay.io.total_s | type), .delay.io.count, .delay.io.avg_ms]' "$TMPDIR_TEST/acc.json")
[ "$got" = '["number","number","number",null,null]' ]
tap_ok $? "--accumulate: CPU total and count are numbers; I/O has a total but a null count and average" \
	"expected [\"number\",\"number\",\"number\",null,null], got '$got'"

# Command mode cannot follow anything without exit records: it says so and does not run the
# command, with status 125 (as env and timeout), not one the command could have given.
mark=$TMPDIR_TEST/ran
"${NOBODY[@]}" "$DT" -- sh -c 'echo >"$1"; exit 1' sh "$mark" >/dev/null 2>"$TMPDIR_TEST/cmd.err"
st=$?
[ "$st" -eq 125 ] && [ ! -e "$mark" ] && grep -q CAP_NET_ADMIN "$TMPDIR_TEST/cmd.err"
tap_ok $? "command mode without CAP_NET_ADMIN: status 125, the command not run, the message names CAP_NET_ADMIN" \
	"status $st, ran: $([ -e "$mark" ] && echo yes || echo no), stderr: $(head -2 "$TMPDIR_TEST/cmd.err")"

for p in $A $B $W; do stop_pid "$p"; done
done_testing
