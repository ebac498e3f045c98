# layers.sh — src/'s folders are layers, and every #include "x.h" keeps to them, directly and
# through the headers it brings in: a folder includes only its own headers and those of the
# folders below it that the table allows, and names only the structs of those. The front ends
# and what they share (show, options, report, record, live, command, export, screen) never
# include the kernel edge, not even through a sample/ header, a lower layer never includes a
# higher one, and the front ends include each other only through what they share (show's rows,
# options', report's metrics, record's recorder and replay). main may include anything. The sampler reaches
# the kernel only through the seam.
. "$top_srcdir/tests/lib.sh"

# folder: the folders it may include besides itself, lowest first (src/README.md says why)
layer_table() {
	cat <<'EOF'
base:
model: base
kernel: base model
sample: base model kernel
show: base model sample
options: base model sample show
report: base model sample show options
record: base model sample show options
live: base model sample show options record
command: base model sample show options
export: base model sample show options report
screen: base model sample show options record live
main: *
EOF
}

# layers_check SRC: prints "FILE includes H (FOLDER)" for each include the table forbids, and
# "FILE includes H (FOLDER) through A.h, B.h" for one it reaches through headers it may include
# (a front end that includes a sample/ header that includes a kernel/ one compiles against the
# kernel edge all the same); a forbidden header is named once per file and not followed further.
# Also "FILE: folder F is not in the table" for a folder it does not know, and headers of one name
# in two folders (a bare include could not tell them apart); fails if it printed any.
layers_check() {
	local src=$1 homes
	homes=$(cd "$src" && find . -mindepth 2 -name '*.h' | sed 's|^\./||' | sort)
	awk -v src="$src" -v homes="$homes" '
		BEGIN {
			n = split(homes, hs, "\n")
			for (i = 1; i <= n; i++) {
				d = hs[i]; sub(/\/.*/, "", d); b = hs[i]; sub(/.*\//, "", b)
				if (b in home) { print "two headers named " b ": " home[b] " and " d; bad = 1 }
				home[b] = d
			}
		}
		FNR == NR { k = $0; sub(/:.*/, "", k); v = $0; sub(/^[^:]*:/, "", v); allow[k] = " " v " "; next }
		FNR == 1 {
			rel = substr(FILENAME, length(src) + 2)
			folder = rel; sub(/\/.*/, "", folder)
			if (!(folder in allow)) { print rel ": folder " folder " is not in the table"; bad = 1 }
			files[++nfiles] = rel; infolder[rel] = folder
			base = rel; sub(/.*\//, "", base)
			if (rel ~ /\.h$/) hfile[base] = rel
		}
		/^[ \t]*#[ \t]*include[ \t]*"/ {
			h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
			if (!(h in home)) next
			inc[rel] = inc[rel] " " h
		}
		# may(F, H): whether folder F may include header H
		function may(f, h) { return home[h] == f || allow[f] ~ /\*/ || index(allow[f], " " home[h] " ") }
		# walk(F, VIA): the headers file F includes, each checked against the file being checked
		# (rel); an allowed one is followed in turn, VIA naming the headers that led there
		function walk(f, via,    m, i, parts, to) {
			m = split(inc[f], parts, " ")
			for (i = 1; i <= m; i++) {
				to = parts[i]
				if (to in seen) continue
				seen[to] = 1
				if (!may(folder, to)) {
					print rel " includes " to " (" home[to] ")" (via == "" ? "" : " through " via); bad = 1
				} else if (to in hfile) {
					walk(hfile[to], via == "" ? to : via ", " to)
				}
			}
		}
		END {
			for (fi = 1; fi <= nfiles; fi++) {
				rel = files[fi]; folder = infolder[rel]
				if (allow[folder] ~ /\*/) continue
				delete seen
				base = rel; sub(/.*\//, "", base)
				seen[base] = 1
				walk(rel, "")
			}
			exit bad
		}
	' <(layer_table) $(find "$src" -mindepth 2 -name '*.[ch]' | sort)
}

# types_check SRC: prints "FILE names struct T (FOLDER)" for each struct a file names (outside
# comments) whose definition lives in a folder it may not include (a forward declaration makes
# a layer depend on a higher one's type as surely as an include); fails if it printed any. A
# struct's home is the folder of the header that defines it, else of the .c file (an opaque type);
# a name two folders' .c files define each for themselves belongs to neither.
types_check() {
	local src=$1 defs
	defs=$(cd "$src" && grep -HE '^[ \t]*(typedef[ \t]+)?struct[ \t]+[a-z_0-9]+[ \t]*\{' $(find . -mindepth 2 -name '*.[ch]' | sed 's|^\./||' | sort) |
		sed -E 's|^([^/]*)/[^:]*\.([ch]):[ \t]*(typedef[ \t]+)?struct[ \t]+([a-z_0-9]+).*|\4 \2 \1|' | sort -u)
	awk -v src="$src" -v defs="$defs" '
		BEGIN {
			n = split(defs, ds, "\n")
			for (i = 1; i <= n; i++) {
				split(ds[i], f, " ") # name, c or h, folder
				if (f[2] == "h") { inh[f[1]] = 1; owner[f[1]] = f[3] }
				else if (!(f[1] in inh)) { if (f[1] in owner && owner[f[1]] != f[3]) gone[f[1]] = 1; owner[f[1]] = f[3] }
			}
			for (t in gone) if (!(t in inh)) delete owner[t]
		}
		FNR == NR { k = $0; sub(/:.*/, "", k); v = $0; sub(/^[^:]*:/, "", v); allow[k] = " " v " "; next }
		FNR == 1 {
			rel = substr(FILENAME, length(src) + 2)
			folder = rel; sub(/\/.*/, "", folder)
			incomment = 0
		}
		allow[folder] ~ /\*/ { next }
		{
			line = $0; out = ""
			while (line != "") {
				if (incomment) {
					e = index(line, "*/"); if (!e) break
					line = substr(line, e + 2); incomment = 0
				} else {
					b = index(line, "/*"); if (!b) { out = out line; break }
					out = out substr(line, 1, b - 1); line = substr(line, b + 2); incomment = 1
				}
			}
			while (match(out, /struct[ \t]+[a-z_0-9]+/)) {
				t = substr(out, RSTART, RLENGTH); sub(/^struct[ \t]+/, "", t)
				out = substr(out, RSTART + RLENGTH)
				if (!(t in owner) || owner[t] == folder || index(allow[folder], " " owner[t] " ")) continue
				if ((rel, t) in said) continue
				said[rel, t] = 1
				print rel " names struct " t " (" owner[t] ")"; bad = 1
			}
		}
		END { exit bad }
	' <(layer_table) $(find "$src" -mindepth 2 -name '*.[ch]' | sort)
}

src="$top_srcdir/src"

layers_check "$src" >"$TMPDIR_TEST/violations"
rc=$?
mapfile -t said <"$TMPDIR_TEST/violations"
tap_ok $rc "every #include in src/, and every header it brings in, keeps to the layer table" "${said[@]}"

types_check "$src" >"$TMPDIR_TEST/types"
rc=$?
mapfile -t said <"$TMPDIR_TEST/types"
tap_ok $rc "every struct a file names is of a folder it may include" "${said[@]}"

find "$src" -mindepth 2 -name '*.[ch]' | wc -l >"$TMPDIR_TEST/count"
[ "$(cat "$TMPDIR_TEST/count")" -gt 50 ] && [ ! -e "$src/delaytop.c" ] && ! ls "$src"/*.c >/dev/null 2>&1
tap_ok $? "the sources sit in folders, none loose in src/ (found $(cat "$TMPDIR_TEST/count"))" ""

# Inside the screen, calls go one way: the state (viewstate.c) below the drawing and the prompts,
# those below the key loop (view.c), that below the sources. The lower parts include no header of
# a higher one, nor each other's.
screen_check() {
	local dir=$1 f h own
	for f in viewstate viewdraw prompt; do
		own=$f.h
		[ $f = viewstate ] || own="$f.h viewstate.h"
		for h in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\(view[a-z]*\.h\|prompt\.h\)".*/\1/p' "$dir/$f.c"); do
			case " $own " in *" $h "*) ;; *) echo "screen/$f.c includes $h" ;; esac
		done
	done
	grep -l 'viewreplay_\|viewlive_' "$dir/viewstate.c" "$dir/viewdraw.c" "$dir/prompt.c" "$dir/view.c" 2>/dev/null |
		sed 's|.*/|screen/|; s|$| calls a source by name|'
}

screen_check "$src/screen" >"$TMPDIR_TEST/screen"
[ ! -s "$TMPDIR_TEST/screen" ]
ok=$?
mapfile -t said <"$TMPDIR_TEST/screen"
tap_ok $ok "the screen's state, drawing and prompts call nothing above them" "${said[@]}"

# The sampler, its collectors and its tables reach the kernel only through the seam (kernelops.h),
# so that the unit tests' fake kernel sees every call: none of their files calls a reader of the
# kernel edge by name. The two doors of the front ends outside any reading do: command mode's
# follow.c, and acctswitch.c, the delay-accounting switch the screen and command mode ask about.
edge_calls='(procfs_(open|close|mounted|list|walk|read_process|describe|tgid|threads|thread_state|thread_state_at|open_tasks|thread_counters|process_acct|thread_io|read)|ts_(open|close|query|probe|cgroupstats|listen[a-z_]*)|cgroupfs_(detect|task_path|exists|walk|pressure|states)|delayacct_(off_at_boot|read|write)|psifile_read|timing_(mono|boot)_ns)'
seam_check() {
	local dir=$1 f
	for f in "$dir"/*.c; do
		case ${f##*/} in follow.c | acctswitch.c) continue ;; esac
		grep -nE "(^|[^>._a-zA-Z0-9])$edge_calls\(" "$f" | sed "s|^|sample/${f##*/}:|; s|\(:[0-9]*:\).*|\1 calls the kernel edge, not through the seam|"
	done
}

seam_check "$src/sample" >"$TMPDIR_TEST/seam"
[ ! -s "$TMPDIR_TEST/seam" ]
ok=$?
mapfile -t said <"$TMPDIR_TEST/seam"
tap_ok $ok "the sampler, its collectors and tables call the kernel edge only through the seam" "${said[@]}"

# The checker can fail: a copy of the tree in which the screen includes the kernel's procfs.h, and
# one in which the sampler includes the screen's view.h.
mkdir -p "$TMPDIR_TEST/copy"
cp -r "$src"/. "$TMPDIR_TEST/copy/"
chmod -R u+w "$TMPDIR_TEST/copy" # distcheck's sources are read-only
printf '#include "procfs.h"\n' >>"$TMPDIR_TEST/copy/screen/viewdraw.c"
layers_check "$TMPDIR_TEST/copy" >"$TMPDIR_TEST/bad1"
rc=$?
[ $rc -ne 0 ] && grep -q '^screen/viewdraw.c includes procfs.h (kernel)$' "$TMPDIR_TEST/bad1"
ok=$?
mapfile -t said <"$TMPDIR_TEST/bad1"
tap_ok $ok "a front end that includes procfs.h fails the check, named" "expected status 1 and" \
	"'screen/viewdraw.c includes procfs.h (kernel)', got status $rc and:" "${said[@]}"

cp "$src/screen/viewdraw.c" "$TMPDIR_TEST/copy/screen/viewdraw.c"
printf '#include "view.h"\n' >>"$TMPDIR_TEST/copy/sample/rowbuild.c"
layers_check "$TMPDIR_TEST/copy" >"$TMPDIR_TEST/bad2"
rc=$?
[ $rc -ne 0 ] && [ "$(cat "$TMPDIR_TEST/bad2")" = "sample/rowbuild.c includes view.h (screen)" ]
ok=$?
mapfile -t said <"$TMPDIR_TEST/bad2"
tap_ok $ok "a lower layer that includes a higher one's header fails the check, named alone" \
	"expected status 1 and only 'sample/rowbuild.c includes view.h (screen)', got status $rc and:" "${said[@]}"

# and one in which a collector walks /proc itself.
printf 'static int around(void) { return procfs_list(NULL, 0, NULL, NULL, NULL); }\n' >>"$TMPDIR_TEST/copy/sample/collect.c"
seam_check "$TMPDIR_TEST/copy/sample" >"$TMPDIR_TEST/bad3"
[ "$(cat "$TMPDIR_TEST/bad3")" = "sample/collect.c:$(wc -l <"$TMPDIR_TEST/copy/sample/collect.c"): calls the kernel edge, not through the seam" ]
ok=$?
mapfile -t said <"$TMPDIR_TEST/bad3"
tap_ok $ok "a collector that calls procfs_list itself fails the seam's check, named" "got:" "${said[@]}"

# and one in which a front end reaches the kernel edge through a sample/ header of its own, and
# one in which the model names a type of the kernel edge's.
cp "$src/sample/collect.c" "$TMPDIR_TEST/copy/sample/collect.c"
cp "$src/sample/rowbuild.c" "$TMPDIR_TEST/copy/sample/rowbuild.c"
printf '#include "procfs.h"\n' >"$TMPDIR_TEST/copy/sample/leak.h"
printf '#include "leak.h"\n' >>"$TMPDIR_TEST/copy/show/filter.c"
layers_check "$TMPDIR_TEST/copy" >"$TMPDIR_TEST/bad4"
rc=$?
[ $rc -ne 0 ] && [ "$(cat "$TMPDIR_TEST/bad4")" = "show/filter.c includes procfs.h (kernel) through leak.h" ]
ok=$?
mapfile -t said <"$TMPDIR_TEST/bad4"
tap_ok $ok "a front end that reaches procfs.h through a sample/ header fails the check, named with the way" \
	"expected status 1 and only 'show/filter.c includes procfs.h (kernel) through leak.h', got status $rc and:" "${said[@]}"

printf 'struct proc_entry;\n' >>"$TMPDIR_TEST/copy/model/model.h"
types_check "$TMPDIR_TEST/copy" >"$TMPDIR_TEST/bad5"
rc=$?
[ $rc -ne 0 ] && [ "$(cat "$TMPDIR_TEST/bad5")" = "model/model.h names struct proc_entry (kernel)" ]
ok=$?
mapfile -t said <"$TMPDIR_TEST/bad5"
tap_ok $ok "the model naming a type of the kernel edge fails the check, named alone" \
	"expected status 1 and only 'model/model.h names struct proc_entry (kernel)', got status $rc and:" "${said[@]}"

done_testing
