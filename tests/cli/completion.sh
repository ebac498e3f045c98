#!/bin/bash
# completion.sh — the bash completion (completion/delaytop.bash), loaded in a bash with the
# bash-completion framework as an interactive shell has it, completes this build's delaytop: every
# long option of the man page and only those, a value-taking option as --opt=, the sort keys,
# columns (the name after the last comma of a list), groups and formats delaytop itself accepts,
# user names, pids, cgroup paths and unit names of cgroups the test makes, and after -- a command and its own
# arguments.
. "$top_srcdir/tests/lib.sh"

script=$top_srcdir/completion/delaytop.bash
framework=/usr/share/bash-completion/bash_completion
[ -f "$framework" ] || skip_all "needs the bash-completion framework at $framework (Debian: bash-completion)"
bin=$(cd "$(dirname "$DELAYTOP")" && pwd)/$(basename "$DELAYTOP")

# complete WORD...: the completions, one per line, when the cursor ends the last WORD. The words
# are as bash splits them: --sort=io is --sort = io.
complete_words() {
	bash --norc --noprofile -c '
		. "$1" >/dev/null 2>&1
		. "$2"
		shift 2
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_delaytop
		printf "%s\n" "${COMPREPLY[@]}"
	' completion "$framework" "$script" "$bin" "$@" 2>"$TMPDIR_TEST/err" | sort
}

# is WORD... -- EXPECTED...: the completions are exactly EXPECTED.
is() {
	local words=() got want
	while [ "$1" != -- ]; do
		words+=("$1")
		shift
	done
	shift
	got=$(complete_words "${words[@]}" | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	[ "$got" = "$want" ]
	tap_ok $? "delaytop ${words[*]}<TAB> completes to: ${want% }" "got: '${got% }' $(head -3 "$TMPDIR_TEST/err")"
}

# The man page documents the options; the completion reads them from --help.
man_opts=$(sed 's/\\-/-/g' "$top_srcdir/man/delaytop.8.in" | sed -n '/^\.SH OPTIONS/,/^\.SH /p' |
	grep -A1 '^\.TP' | grep -o -- '--[a-z][a-z-]*' | sort -u | tr '\n' ' ')
got=$(complete_words -- | sed 's/=$//' | sort -u | tr '\n' ' ')
[ -n "$man_opts" ] && [ "$got" = "$man_opts" ]
tap_ok $? "-- completes to every long option of the man page's OPTIONS, and no other" \
	"man page: '$man_opts'; completion: '$got'"

# Every option that takes a value has its own branch in the completion (what it completes, or
# nothing: a value of the user's own), and no branch names an option delaytop does not have: both
# lists come from delaytop's option table, the one through --help.
help_vals=$(LC_ALL=C "$bin" --help | sed -n 's/^  \(-.\), \(--[a-z][a-z-]*\)=.*/\1 \2/p; s/^      \(--[a-z][a-z-]*\)=.*/\1/p' |
	tr ' ' '\n' | sort -u | tr '\n' ' ')
branches=$(sed -n '/^\tcase \$prev in/,/^\tesac/p' "$script" | sed 's/#.*//' | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' |
	grep -E '^[[:space:]]*-[^)]*\)' | sed 's/).*//' | grep -oE -- '--?[A-Za-z][a-z-]*' | sort -u | tr '\n' ' ')
[ -n "$help_vals" ] && [ "$branches" = "$help_vals" ]
tap_ok $? "the completion has a branch for each option --help shows with a value, and only those" \
	"--help: '$help_vals'; completion: '$branches'"

is --so -- --sort=
is --th -- --threads
is --ex -- --exit-buffer=
is -s t -- total thrashing tasks trend
is -s p -- pcpu procs pid
is --sort = io -- io io_some io_full iowait io_p50 io_p99
is --sort = -- $(LC_ALL=C "$bin" -s '?' 2>&1 | sed -n 's/.*(choose from: \(.*\))$/\1/p' | tr -d ',')
is --group = -- process thread cgroup command
is --group c -- cgroup command
is --columns = pid,i -- pid,io pid,io_some pid,io_full pid,iowait pid,irq pid,irq_full pid,ivcsw pid,io_p50 pid,io_p99
is --columns = pi -- pid
is --format c -- csv
is -b --format '' -- text csv json openmetrics html
is --web-c -- --web-config=
mkdir -p "$TMPDIR_TEST/webdir" && touch "$TMPDIR_TEST/webdir/web.yml"
cd "$TMPDIR_TEST/webdir" || exit 1
is --listen 9277 --web-config = w -- web.yml # a file name
cd - >/dev/null || exit 1

# The sort keys are delaytop's own: a key the completion offers is accepted.
bad=""
for key in $(complete_words -s ''); do
	LC_ALL=C "$bin" -s "$key" --help >/dev/null 2>&1 || bad="$bad $key"
done
[ -z "$bad" ] && [ "$(complete_words -s '' | wc -l)" -ge 20 ]
tap_ok $? "every sort key offered is one delaytop accepts" "refused:$bad"

is -u roo -- root
complete_words -p "$$" | grep -qx "$$"
tap_ok $? "-p completes a running pid (this test's, $$)" "$(complete_words -p "$$" | head -3)"
complete_words -r rec -p "$$" | grep -q .
tap_ok $((!$?)) "-p after -r: the pids are the recording's, so none of this machine's is offered"
complete_words --read = rec -p "$$" | grep -q .
tap_ok $((!$?)) "-p after --read=FILE: none offered either"
complete_words -d '' | grep -q .
tap_ok $((!$?)) "-d takes the user's own number: nothing is offered"

# A cgroup of the test's own, under the hierarchy delaytop uses (v2, else name=systemd).
root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
[ -n "$root" ] || root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)name=systemd(,|$)/ { print $2; exit }' /proc/self/mounts)
cg=dt-completion-$$
if [ -n "$root" ] && mkdir "$root/$cg" 2>/dev/null && mkdir "$root/$cg/inner" "$root/$cg/$cg-web.service"; then
	is -c "/$cg" -- "/$cg/"
	is --cgroup = "$cg/i" -- "/$cg/inner/"
	is --unit = "$cg-w" -- "$cg-web.service"
	rmdir "$root/$cg/inner" "$root/$cg/$cg-web.service" "$root/$cg"
else
	[ -n "$root" ] && rmdir "$root/$cg" 2>/dev/null
	tap_skip "-c completes cgroup paths" "cannot make a cgroup under '${root:-no hierarchy}' (needs root)"
	tap_skip "--cgroup= completes cgroup paths" "cannot make a cgroup under '${root:-no hierarchy}'"
	tap_skip "--unit= completes unit names" "cannot make a cgroup under '${root:-no hierarchy}'"
fi

complete_words -b -- slee | grep -qx sleep
tap_ok $? "after --, a command is completed" "$(complete_words -b -- slee | head -3)"
complete_words -b -- timeout --fore | grep -qx -- --foreground
tap_ok $? "and then its own options, by its own completion" "$(complete_words -b -- timeout --fore | head -3)"

done_testing
