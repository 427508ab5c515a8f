# Sourced by the shell scripts before they do anything: with -h or --help among the arguments, the script's
# header comment (its usage, what it does, its exit codes) goes to standard output, and the script exits 0.
# Every command the docs name answers --help so (tests/common/test_help checks each).

answer_help() { # the script's arguments
    local argument
    for argument; do
        case $argument in
        -h | --help)
            awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"
            exit 0
            ;;
        esac
    done
}
