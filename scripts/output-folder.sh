# shellcheck shell=bash
# Sourced by the scripts that write an output folder (report-render, history-render, compare-results,
# compare-revisions): the shell's half of the output rule of docs/command-line.md ("What memscope writes"), the
# same as harness/results/partial_folder.c and scripts/memscope_output.py hold for C and Python.
# The work goes to OUT_DIR.partial, which replaces OUT_DIR only once complete: a failed run leaves an earlier
# OUT_DIR as it was. The writer marks its folder with a file OUTPUT_MARK: its name on the first line, then, once
# complete, every path it wrote there, one a line. It replaces OUT_DIR only when the mark names it and lists
# everything in the folder, and OUT_DIR.partial only when the mark names it (an interrupted run of its own).
# Anything else (a file, a folder without the writer's mark, a file the mark does not list: a user's notes beside
# the report) is refused, exit 4, naming it, and left untouched.

OUTPUT_MARK=.memscope-output
OUTPUT_PARTIAL="" # the .partial folder this run made, once it made one: the only one it may remove

output_refuse() { # writer message
    echo "$1: $2" >&2
    exit 4
}

# The first thing in folder PATH that the mark there does not list, if any (the mark itself aside).
output_unlisted() { # path
    local listed
    listed=$(tail -n +2 "$1/$OUTPUT_MARK")
    (cd "$1" && find . -mindepth 1 ! -path "./$OUTPUT_MARK" | sed 's|^\./||') |
        while IFS= read -r entry; do
            grep -qxF -- "$entry" <<<"$listed" || { echo "$entry"; break; }
        done
}

# Exits 4 unless PATH is absent or a folder that WRITER marked as its own; with "complete", also unless its mark
# lists everything in it.
require_absent_or_own() { # writer path [complete]
    local unknown
    [ -e "$2" ] || [ -L "$2" ] || return 0
    if [ ! -d "$2" ] || [ -L "$2" ]; then
        output_refuse "$1" "$2 exists and is not a folder; choose another output folder"
    fi
    [ "$(head -n 1 "$2/$OUTPUT_MARK" 2>/dev/null)" = "$1" ] ||
        output_refuse "$1" "$2 exists and $1 did not write it (no $OUTPUT_MARK naming $1 in it); choose another output folder, or move it away yourself"
    [ "${3:-}" = complete ] || return 0
    [ "$(wc -l <"$2/$OUTPUT_MARK")" -gt 1 ] || # every writer writes something
        output_refuse "$1" "$2 was written by a $1 from before its mark listed what it wrote, so what else is there cannot be told; move it away, or remove it yourself"
    unknown=$(output_unlisted "$2")
    [ -z "$unknown" ] ||
        output_refuse "$1" "$2/$unknown: $1 did not write it, so it will not replace $2; move it away, or choose another output folder"
}

output_abandon() { # removes this run's .partial folder, and nothing else
    [ -z "$OUTPUT_PARTIAL" ] || rm -rf "$OUTPUT_PARTIAL"
}

# Makes OUT_DIR.partial, which must not exist, with the writer's mark; fails (1) if it exists by now.
output_claim() { # writer out_dir
    mkdir "$2.partial" 2>/dev/null || return 1
    OUTPUT_PARTIAL=$2.partial
    trap output_abandon EXIT
    echo "$1" >"$2.partial/$OUTPUT_MARK" || output_refuse "$1" "cannot write in $2.partial"
}

# Checks OUT_DIR, then starts OUT_DIR.partial afresh with the mark; it is removed on exit unless committed. A script
# with an EXIT trap of its own calls output_abandon from it.
output_begin() { # writer out_dir
    require_absent_or_own "$1" "$2" complete
    require_absent_or_own "$1" "$2.partial"
    rm -rf "$2.partial" # left by an interrupted run of the same writer
    output_claim "$1" "$2" || output_refuse "$1" "cannot create $2.partial"
}

# A fresh OUT_DIR named STEM-<UTC time to the second>, with -2, -3... where one of that name, or its .partial,
# exists: two runs in one second get two folders. Sets OUTPUT_DIR, and starts OUTPUT_DIR.partial as output_begin.
output_begin_fresh() { # writer stem
    local stamp i=1
    stamp=$2-$(date -u +%Y%m%dT%H%M%SZ)
    mkdir -p "$(dirname "$2")" || output_refuse "$1" "cannot create $(dirname "$2")"
    OUTPUT_DIR=$stamp
    until [ ! -e "$OUTPUT_DIR" ] && output_claim "$1" "$OUTPUT_DIR"; do
        i=$((i + 1))
        [ "$i" -le 1000 ] || output_refuse "$1" "cannot create a folder $stamp-N.partial"
        OUTPUT_DIR=$stamp-$i
    done
}

# Replaces OUT_DIR (absent, or the writer's own) with the complete OUT_DIR.partial, whose mark now lists what is in it.
output_commit() { # writer out_dir
    require_absent_or_own "$1" "$2" complete
    (cd "$2.partial" && find . -mindepth 1 ! -path "./$OUTPUT_MARK" | sed 's|^\./||') >>"$2.partial/$OUTPUT_MARK" ||
        output_refuse "$1" "cannot write in $2.partial"
    rm -rf "$2"
    mv "$2.partial" "$2" || output_refuse "$1" "cannot move $2.partial to $2"
    OUTPUT_PARTIAL=""
}
