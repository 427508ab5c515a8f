"""memscope's side of the comparisons: the CSVs harness/results writes.

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


def read_csv(path, columns):
    with open(path, newline="") as f:
        return read_rows(f, path, columns)


def number(text, where):
    try:
        return float(text)
    except ValueError:
        raise BadInput(f"{where}: '{text}' is not a number") from None


def decode_program():
    build = os.environ.get("MEMSCOPE_BUILD") or os.path.join(os.path.dirname(__file__), "..", "..", "build")
    return os.path.join(build, "memscope-decode")


def decoded_instructions(capture, metrics):
    """The instructions.csv rows memscope-decode --instructions makes of a .source capture, refused when one of
    the line metrics named is not a column; memscope-decode's refusal, with its exit code."""
    decode = decode_program()
    if not os.access(decode, os.X_OK):
        raise BadInput(f"{decode} is not built; run make first")
    done = subprocess.run([decode, "--instructions", capture], capture_output=True, text=True)
    if done.returncode != 0:
        raise Refusal(done.stderr.strip() or f"{decode} --instructions {capture} failed (exit {done.returncode})",
                      done.returncode)
    return read_rows(io.StringIO(done.stdout), f"{capture} (decoded)", INSTRUCTION_PLACE + tuple(metrics))


def read_profile(folder):
    """[(job, kernel name, {metric: value})] of a memscope-profile folder's profiled launches, in the order
    the program made them: its launches.csv (the first run's selected launches) and metrics.csv (by job). Only the
    folder's own part is read, the program's process; a child process's part (process-<pid>/) is another program."""
    environment = os.path.join(folder, "environment.csv")
    kinds = [row["value"] for _, row in read_csv(environment, ("key", "value")) if row["key"] == "kind"]
    if kinds != ["program"]:
        raise BadInput(f"{folder}: not a memscope-profile folder (its environment.csv has no kind,program)")
    values = {}
    path = os.path.join(folder, "metrics.csv")
    for n, row in read_csv(path, ("variant", "metric", "value")):
        if row["value"] != "":
            values.setdefault(row["variant"], {})[row["metric"]] = number(row["value"], f"{path}:{n}")
    path = os.path.join(folder, "launches.csv")
    launches = [(int(number(row["ordinal"], f"{path}:{n}")), row["job"], row["kernel"])
                for n, row in read_csv(path, ("ordinal", "kernel", "selected", "job", "run"))
                if row["selected"] == "1" and row["run"] in ("", "1") and row["job"] in values]
    return [(job, kernel, values[job]) for _, job, kernel in sorted(launches)]
