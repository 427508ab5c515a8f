"""memscope's side of the comparisons: the CSVs harness/results writes.

Before a file or folder of a run is read here, `memscope-report-data --check` checks it as every reader of a results
folder does (harness/results/value_limits.h: each column's limits, defined once): a value the report or
memscope-compare refuses is refused here by the same words, with no second copy of the limits.

A `.source` capture is read through `memscope-decode --instructions`, which prints its instructions.csv rows (one
per SASS instruction, by its offset in the kernel, with the line metrics a run sums into lines.csv): the capture
format keeps one reader (harness/source/source_capture.c) and an instruction's excess one definition
(harness/source/source_metrics.h), here as everywhere else.
"""
import csv
import io
import os
import subprocess

from .command import BadInput, Refusal

INSTRUCTION_PLACE = ("variant", "kernel", "offset", "file", "line", "opcode")  # then one column per line metric


def read_rows(stream, name, columns):
    """[(line number, {column: text})] of a memscope CSV; refused when one of columns is missing."""
    reader = csv.DictReader(stream)
    missing = [c for c in columns if c not in (reader.fieldnames or [])]
    if missing:
        raise BadInput(f"{name}: no column {', '.join(missing)} (is it the memscope CSV asked for?)")
    return list(enumerate(reader, start=2))


def read_csv(path, columns, as_file=None):
    """read_rows of a file; with as_file, the results folder's file it is, checked first (check_results)."""
    with open(path, newline="") as f:
        text = f.read()
    if as_file:
        check_results(path, as_file, text)
    return read_rows(io.StringIO(text), path, columns)


def number(text, where):
    try:
        return float(text)
    except ValueError:
        raise BadInput(f"{where}: '{text}' is not a number") from None


def program(name):
    """A program of the build (MEMSCOPE_BUILD names another build folder), refused when it is not built."""
    build = os.environ.get("MEMSCOPE_BUILD") or os.path.join(os.path.dirname(__file__), "..", "..", "build")
    path = os.path.join(build, name)
    if not os.access(path, os.X_OK):
        raise BadInput(f"{path} is not built; run make first")
    return path


def check_results(path, as_file=None, text=None):
    """Refuses a results folder, or one of its files (as_file: which, when its name does not say), that a reader of
    results folders refuses: memscope-report-data --check's message and exit code. A file that is no regular file
    (a pipe, read once) is handed over as text, on the checker's standard input."""
    piped = text is not None and not os.path.isfile(path)
    command = [program("memscope-report-data"), "--check"] + (["--as", as_file] if as_file else [])
    command.append("/dev/stdin" if piped else path)
    done = subprocess.run(command, input=text if piped else None, capture_output=True, text=True)
    if done.returncode != 0:
        message = done.stderr.strip().removeprefix("memscope-report-data: ")
        raise Refusal(message or f"{' '.join(command)} failed (exit {done.returncode})", done.returncode)


def decoded_instructions(capture, metrics):
    """The instructions.csv rows memscope-decode --instructions makes of a .source capture, refused when one of
    the line metrics named is not a column; memscope-decode's refusal, with its exit code."""
    decode = program("memscope-decode")
    done = subprocess.run([decode, "--instructions", capture], capture_output=True, text=True)
    if done.returncode != 0:
        raise Refusal(done.stderr.strip() or f"{decode} --instructions {capture} failed (exit {done.returncode})",
                      done.returncode)
    return read_rows(io.StringIO(done.stdout), f"{capture} (decoded)", INSTRUCTION_PLACE + tuple(metrics))


def profile_parts(folder, environment):
    """[(folder of the part, its label, its pid)] of a profile: each part a multi-process program's environment.csv
    names (part_<dir>, with part_<dir>_pid), or the folder itself alone for a program of one process."""
    entries = dict((row["key"], row["value"]) for _, row in environment)
    parts = [(os.path.join(folder, key[5:]), label, entries.get(key + "_pid", ""))
             for key, label in entries.items() if key.startswith("part_") and "_" not in key[5:]]
    return parts or [(folder, "", entries.get("pid", ""))]


def read_profile(folder):
    """[(pid, job, kernel name, {metric: value})] of a memscope-profile folder's profiled launches, part by part, each
    part's in the order its process made them: its launches.csv (the first run's selected launches) and the folder's
    metrics.csv (by job, "[rank 1]/..." where the profile has parts). pid: the process that made it."""
    check_results(folder)
    environment = read_csv(os.path.join(folder, "environment.csv"), ("key", "value"))
    if [row["value"] for _, row in environment if row["key"] == "kind"] != ["program"]:
        raise BadInput(f"{folder}: not a memscope-profile folder (its environment.csv has no kind,program)")
    values = {}
    path = os.path.join(folder, "metrics.csv")
    for n, row in read_csv(path, ("variant", "metric", "value")):
        if row["value"] != "":
            values.setdefault(row["variant"], {})[row["metric"]] = number(row["value"], f"{path}:{n}")
    profiled = []
    for part, label, pid in profile_parts(folder, environment):
        path = os.path.join(part, "launches.csv")
        if not os.path.isfile(path):
            raise BadInput(f"{path}: missing (a part of the profile without its launches)")
        keyed = (lambda job: f"[{label}]/{job}") if label else (lambda job: job)
        launches = [(int(number(row["ordinal"], f"{path}:{n}")), keyed(row["job"]), row["kernel"])
                    for n, row in read_csv(path, ("ordinal", "kernel", "selected", "job", "run"), "launches.csv")
                    if row["selected"] == "1" and row["run"] in ("", "1") and keyed(row["job"]) in values]
        profiled += [(pid, job, kernel, values[job]) for _, job, kernel in sorted(launches)]
    return profiled
