# delaytop(8) completion for bash — options, sort keys, columns, groups, formats, users, pids,
# cgroup paths, unit names, files (-o, and the recordings of -w and -r), the periods of --rotate and, after --,
# a command.
#
# Nothing here repeats delaytop's tables: the options come from its --help, and the values an
# option takes from the list its own error message gives for a value it does not know ("choose
# from: a, b, c"), both read from the delaytop being completed, in the C locale. The one
# exception is --rotate's two words, hour and day, beside a number of seconds. The branches of
# `case $prev` below name each option that takes a value, and tests/cli/completion.sh checks them
# against --help (made from delaytop's option table), so that a new one cannot be missed.

# _delaytop_choices PROGRAM OPTION: the values OPTION accepts, one per line.
_delaytop_choices()
{
	LC_ALL=C "$1" "$2=?" 2>&1 >/dev/null </dev/null |
		sed -n 's/.*(choose from: \(.*\))$/\1/p' | tr -d ' ' | tr ',' '\n'
}

# _delaytop_cgroups PREFIX: cgroup paths (as /proc/PID/cgroup shows them) that begin with PREFIX,
# from the cgroup v2 hierarchy, else the name=systemd one, as delaytop chooses.
_delaytop_cgroups()
{
	local root dir
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts 2>/dev/null)
	[ -n "$root" ] || root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)name=systemd(,|$)/ { print $2; exit }' /proc/self/mounts 2>/dev/null)
	[ -n "$root" ] || return 0
	case $1 in
	/*) ;;
	*) set -- "/$1" ;;
	esac
	for dir in $(compgen -d -- "$root$1"); do
		printf '%s/\n' "${dir#"$root"}"
	done
}

# _delaytop_units PREFIX: the names of the units (services, scopes, slices) whose cgroups exist,
# that begin with PREFIX, from the hierarchy _delaytop_cgroups reads.
_delaytop_units()
{
	local root
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts 2>/dev/null)
	[ -n "$root" ] || root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)name=systemd(,|$)/ { print $2; exit }' /proc/self/mounts 2>/dev/null)
	[ -n "$root" ] || return 0
	find "$root" -mindepth 1 -maxdepth 8 -type d \( -name '*.service' -o -name '*.scope' -o -name '*.slice' \) \
		-printf '%f\n' 2>/dev/null | sort -u | while IFS= read -r name; do
		[ "${name#"$1"}" != "$name" ] && printf '%s\n' "$name"
	done
}

# _delaytop_options PROGRAM: the long options and, after each, = when it takes a value: those
# that begin a line of --help ("  -s, --sort=KEY" or "      --reverse"), not those its texts name.
_delaytop_options()
{
	LC_ALL=C "$1" --help 2>/dev/null </dev/null |
		sed -n 's/^\(  -., \|      \)\(--[a-z][a-z-]*\)\(=\{0,1\}\).*/\2\3/p'
}

_delaytop()
{
	local cur prev prog=${COMP_WORDS[0]/#\~/$HOME} i
	local IFS=$'\n'

	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}

	# After --, the rest is a command line of its own.
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i]}" = -- ]; then
			if [ "$i" -eq $((COMP_CWORD - 1)) ]; then
				COMPREPLY=($(compgen -c -- "$cur"))
			elif declare -F _command_offset >/dev/null; then
				_command_offset $((i + 1))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return 0
		fi
	done

	# --opt=value arrives as three words: --opt, =, value (COMP_WORDBREAKS has '=').
	if [ "$prev" = = ] && [ "$COMP_CWORD" -ge 2 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [ "$cur" = = ]; then
		cur=""
	fi

	case $prev in
	-s | --sort)
		COMPREPLY=($(compgen -W "$(_delaytop_choices "$prog" --sort)" -- "$cur"))
		return 0
		;;
	--group | --format)
		COMPREPLY=($(compgen -W "$(_delaytop_choices "$prog" "$prev")" -- "$cur"))
		return 0
		;;
	--columns) # a list: the name after the last comma
		COMPREPLY=($(compgen -P "${cur%"${cur##*,}"}" -W "$(_delaytop_choices "$prog" --columns)" -- "${cur##*,}"))
		compopt -o nospace 2>/dev/null
		return 0
		;;
	-u | --user)
		COMPREPLY=($(compgen -u -- "$cur"))
		return 0
		;;
	-p | --pid)
		# on a replay (-r) the pids are the recording's, not this machine's: none offered
		for ((i = 1; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in -r | --read | -r?* | --read=*) return 0 ;; esac
		done
		COMPREPLY=($(compgen -W "$(cd /proc && compgen -G '[0-9]*')" -- "$cur"))
		return 0
		;;
	-o | --output | -w | --write | -r | --read | --web-config)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0
		;;
	--rotate) # or a number of seconds, the user's own
		COMPREPLY=($(compgen -W $'hour\nday' -- "$cur")) # IFS is a newline here
		return 0
		;;
	--unit)
		COMPREPLY=($(_delaytop_units "$cur"))
		return 0
		;;
	-c | --cgroup)
		COMPREPLY=($(_delaytop_cgroups "$cur"))
		[ "${#COMPREPLY[@]}" -eq 0 ] || compopt -o nospace 2>/dev/null
		return 0
		;;
	-n | --iterations | -d | --delay | --exit-buffer | --listen | --top-commands | --series-expiry | \
		--keep | --capture | --trigger | \
		--begin | --end)
		return 0 # a value of the user's own
		;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_delaytop_options "$prog")" -- "$cur"))
		# an option that takes a value is offered as --opt=, with the cursor after the =
		if [ "${#COMPREPLY[@]}" -eq 1 ] && [[ ${COMPREPLY[0]} == *= ]]; then
			compopt -o nospace 2>/dev/null
		fi
	fi
	return 0
}
complete -F _delaytop delaytop
