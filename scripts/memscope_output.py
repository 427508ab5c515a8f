"""Python's half of the output rule of docs/command-line.md ("What memscope writes"), the same as
harness/results/partial_folder.c holds for C and scripts/output-folder.sh for the shell: an output file is written
as FILE.partial and renamed FILE once complete; memscope never removes or replaces what it did not write, so an
existing FILE or FILE.partial is refused (exit 4, naming it) and left as it was. A script imports it from
scripts/, beside itself."""
import os
import sys

EXIT_OUTPUT = 4


def refuse(writer, message):
    print(f"{writer}: {message}", file=sys.stderr)
    sys.exit(EXIT_OUTPUT)


def require_absent(writer, path):
    """Exits 4 unless neither path nor path.partial exists: what a run checks before its work, to refuse at once."""
    if os.path.lexists(path):
        refuse(writer, f"{path} already exists: memscope replaces no file (choose another name, or move it away "
                       "yourself)")
    if os.path.lexists(path + ".partial"):
        refuse(writer, f"{path}.partial already exists: memscope did not leave it, or cannot tell (move it away "
                       "yourself)")


def write_file(writer, path, data):
    """Writes the bytes data to path through path.partial, which it creates itself and alone removes; the final
    name is made without replacing a file that appeared meanwhile. Exits 4 on refusal or failure."""
    require_absent(writer, path)
    partial = path + ".partial"
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as e:
        refuse(writer, f"cannot create {partial}: {e.strerror}")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.link(partial, path)  # unlike a rename, refuses a path that exists by now
    except OSError as e:
        refuse(writer, f"cannot write {path}: {e.strerror}")
    finally:
        os.remove(partial)
