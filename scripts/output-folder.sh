# Sourced by the scripts that render into an OUT_DIR (report-render, history-render): they only ever remove
# or replace a folder they wrote themselves, which they mark with a file OUTPUT_MARK holding their name.
# The work goes to OUT_DIR.partial, which replaces OUT_DIR only once complete: a failed render leaves an
# earlier OUT_DIR as it was. Anything else at OUT_DIR or OUT_DIR.partial (a file, a folder without the
# writer's mark) is refused, exit 4, and left untouched.

OUTPUT_MARK=.memscope-output

output_refuse() { # writer message
    echo "$1: $2" >&2
    exit 4
}

# Exits 4 unless PATH is absent or a folder that WRITER marked as its own.
require_absent_or_own() { # writer path
    [ -e "$2" ] || [ -L "$2" ] || return 0
    [ -d "$2" ] || output_refuse "$1" "$2 exists and is not a folder; choose another output folder"
    [ "$(cat "$2/$OUTPUT_MARK" 2>/dev/null)" = "$1" ] ||
        output_refuse "$1" "$2 exists and $1 did not write it (no $OUTPUT_MARK naming $1 in it); choose another output folder, or move it away yourself"
}

# Checks OUT_DIR, then starts OUT_DIR.partial afresh with the mark; it is removed on exit unless committed.
output_begin() { # writer out_dir
    require_absent_or_own "$1" "$2"
    require_absent_or_own "$1" "$2.partial"
    rm -rf "$2.partial" # left by an interrupted run of the same writer
    mkdir -p "$2.partial" || output_refuse "$1" "cannot create $2.partial"
    # shellcheck disable=SC2064 # the path is fixed now, quoted for the shell that runs the trap
    trap "rm -rf $(printf %q "$2.partial")" EXIT
    echo "$1" >"$2.partial/$OUTPUT_MARK" || output_refuse "$1" "cannot write in $2.partial"
}

# Replaces OUT_DIR (absent, or the writer's own) with the complete OUT_DIR.partial.
output_commit() { # writer out_dir
    require_absent_or_own "$1" "$2"
    rm -rf "$2"
    mv "$2.partial" "$2" || output_refuse "$1" "cannot move $2.partial to $2"
    trap - EXIT
}
