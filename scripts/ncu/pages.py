"""Nsight Compute's CSV, the two pages the comparisons read.

The raw page, `ncu --csv --print-units base ...`: one row per kernel launch and metric, every field quoted,
numbers with thousands separators, a header row starting "ID"; ncu's own messages ("==PROF==", "==WARNING==")
may stand between the rows.

The source page, `ncu -i REPORT --page source --csv --print-source cuda,sass` (as Nsight Compute wrote it on
an H100: tests/fixtures/ncu-icache_fit-W256.csv): per kernel and source file a "File Path" row, then a
"Function Name" row and a header row starting "Line No", then for each CUDA line a row with its number and text,
followed by the rows of the SASS instructions placed on it (no line number, their address in the third field, a
"..." row where the addresses skip). Every field is quoted, but a quote inside one is not escaped: a line of
inline asm (`asm volatile("cp.async..." ::"r"(d), ...)`) is no field a CSV reader reads whole, and a line whose
text holds `","` has more fields than the header.
An inlined instruction is listed under every line of its inline stack; a kernel profiled twice is listed twice
(its line rows are summed, its instructions read once).

An instruction's address is where its kernel was loaded on the machine that ran it; its offset in the kernel,
which memscope's capture records (CUPTI's PC offset), is its address less the kernel's lowest listed address:
the page lists every instruction of the kernel, the first included (the trailing NOPs too). Where it did not,
every offset would be shifted: compare-ncu-lines checks that the opcodes at each offset agree.

A line is a place: its file's name and its number. ncu's File Path is where the file was on the machine that
ran it; memscope's is relative to the repository it ran in: only the name is common to both.
"""
import csv
import io
import os
import re
from collections import defaultdict, namedtuple

from .command import BadInput
from .names import kernel_keys

# A unit as ncu prints it with --print-units base: "", "%", or words joined by "/" ("register/thread",
# "byte/second"); each word a thing counted, a size in bytes or a time. A value is read in the base units, bytes and
# nanoseconds: sizes and times scaled (Kbyte x 1e3, usecond x 1e3 ns), things counted as they are. A word that is
# none of these (a prefixed count, "Kinst", printed without --print-units base) is not understood.
PREFIXES = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
TIME_IN_NS = {"ns": 1, "nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9}
COUNTED = {"inst", "instruction", "sector", "request", "wavefront", "cycle", "warp", "thread", "block", "cta",
           "register", "byte", "bit", "op", "pass", "hit", "miss", "transaction", "SM", "TPC", "GPC"}


def unit_factor(unit):
    """The factor that takes a value in unit to the base units; None for a unit that is not understood."""
    if unit in ("", "%"):
        return 1
    factor = 1.0
    for i, word in enumerate(unit.split("/")):
        if word in TIME_IN_NS:
            scale = TIME_IN_NS[word]
        elif word.endswith("byte") and word[:-4] in PREFIXES:
            scale = PREFIXES[word[:-4]]
        elif word in COUNTED:
            scale = 1
        else:
            return None
        factor = factor * scale if i == 0 else factor / scale
    return factor
NVTX_RANGE = re.compile(r"memscope:([^:]*):Uint64")  # a range of memscope's NVTX domain in the NVTX column
NO_LINE = ("", 0)  # the place of an instruction without line information (cuBLAS)

# ranges: memscope's NVTX ranges, outermost first; launch: ncu's ID of the profiled launch (0, 1, ... in the order it
# profiled them); process: the ID of the process that made it ("" where the page has no such column)
RawValue = namedtuple("RawValue", "ranges kernel metric value launch process")
SourceKernel = namedtuple("SourceKernel", "name lines instructions")  # lines: {place: {column: value}}
# instructions: {offset: Instruction}; places: every line ncu lists it under; opcode: its SASS opcode
Instruction = namedtuple("Instruction", "places opcode values")


def place(path, line):
    """The place of a line, as ncu and memscope both can name it."""
    return (os.path.basename(path), int(line)) if path or int(line) else NO_LINE


def number(text, where):
    """A number as ncu writes it ("1,234"; "" or "-" where there is none)."""
    if text in ("", "-"):
        return 0.0
    try:
        return float(text.replace(",", ""))
    except ValueError:
        raise BadInput(f"{where}: '{text}' is not a number") from None


def rows(path):
    """(line number, fields) of each CSV row that is not one of ncu's messages; refused when the file ends without
    its last line's end, as one cut short does (ncu ends every line)."""
    with open(path, newline="") as f:
        text = f.read()
    if text and not text.endswith("\n"):
        raise BadInput(f"{path}: the last line has no line end (a truncated file?)")
    try:
        table = list(enumerate(csv.reader(io.StringIO(text)), start=1))
    except csv.Error as e:
        raise BadInput(f"{path}: not a CSV file ({e})") from None
    return [(n, r) for n, r in table if r and not r[0].startswith("==")]


def source_rows(path):
    """(line number, fields) of each row of the source page that is not one of ncu's messages. Its quotes are
    not escaped (see above): a row is split at each `","`, and where a line's row has more fields than the header,
    its text (field 1, the row's only free text) is joined back."""
    table, width = [], 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, text in enumerate(f, start=1):
            text = text.rstrip("\r\n")
            if not text or text.startswith("=="):
                continue
            quoted = len(text) > 1 and text[0] == text[-1] == '"'
            fields = text[1:-1].split('","') if quoted else next(csv.reader([text]))
            surplus = len(fields) - width
            if fields[0] == "Line No":
                width = len(fields)
            elif width and surplus > 0 and fields[0].strip().isdigit():
                fields[1:2 + surplus] = ['","'.join(fields[1:2 + surplus])]
            table.append((n, fields))
    return table


def sass_opcode(sass):
    """'@!P0  STG.E.128 desc[UR6][R2.64], R148' -> 'STG.E.128': the opcode, without its predicate."""
    words = [w for w in sass.split() if not w.startswith("@")]
    return words[0] if words else ""


def by_offset(instructions):
    """{address: Instruction} -> {offset in the kernel: Instruction}."""
    first = min(instructions, default=0)
    return {address - first: instruction for address, instruction in instructions.items()}


def read_raw(path):
    """The raw page's values, each in its metric's base unit (bytes, nanoseconds), its kernel as kernel_key."""
    table = rows(path)
    header = next((r for _, r in table if r[0] == "ID"), None)
    if header is None:
        raise BadInput(f"{path}: no ncu --csv header row")
    col = {name: i for i, name in enumerate(header)}
    missing = [name for name in ("Kernel Name", "Metric Name", "Metric Unit", "Metric Value") if name not in col]
    if missing:
        raise BadInput(f"{path}: no {', '.join(missing)} column")
    nvtx = next((i for name, i in col.items() if name.startswith("thread Domain:Push/Pop")), None)
    start = next(n for n, r in table if r is header)  # what precedes the header is the program's own output
    body = [(n, r) for n, r in table if n > start and r[0] != "ID"]
    short = next(((n, r) for n, r in body if len(r) != len(header)), None)
    if short:
        raise BadInput(f"{path}:{short[0]}: {len(short[1])} fields where the header has {len(header)} (a truncated "
                       "file, or not ncu's --csv raw page?)")
    keys = kernel_keys({r[col["Kernel Name"]] for _, r in body})
    values = []
    for n, r in body:
        unit = r[col["Metric Unit"]]
        factor = unit_factor(unit)
        if factor is None:
            raise BadInput(f"{path}:{n}: unit '{unit}' not understood (run ncu with --print-units base)")
        value = number(r[col["Metric Value"]], f"{path}:{n}") * factor
        ranges = NVTX_RANGE.findall(r[nvtx]) if nvtx is not None else []
        launch = int(number(r[col["ID"]], f"{path}:{n}"))
        process = r[col["Process ID"]] if "Process ID" in col else ""
        values.append(RawValue(ranges, keys[r[col["Kernel Name"]]], r[col["Metric Name"]], value, launch, process))
    return values


def read_source(path, columns):
    """{kernel_key: SourceKernel} of the source page, with the named columns' values (those the page has) of each
    line and instruction; and the set of the page's column names."""
    table = source_rows(path)
    keys = kernel_keys({r[1] for _, r in table if r[0] == "Function Name" and len(r) > 1})
    kernels, seen_columns = {}, set()
    kernel, header, file, line = None, None, "", NO_LINE
    for n, r in table:
        if r[0] == "File Path" and len(r) > 1:
            file, line = r[1], NO_LINE
        elif r[0] == "Function Name" and len(r) > 1:
            kernel = kernels.setdefault(keys[r[1]], SourceKernel(r[1], defaultdict(lambda: defaultdict(float)), {}))
            line = NO_LINE
        elif r[0] == "Line No":
            header = {c: i for i, c in enumerate(r) if c in columns}
            width, seen_columns = len(r), seen_columns | set(r)
        elif kernel is None or header is None or len(r) != width:
            continue
        elif r[0].strip().isdigit():
            line = place(file, r[0])
            for c, i in header.items():
                kernel.lines[line][c] += number(r[i], f"{path}:{n}")
        elif len(r) > 2 and r[2].startswith("0x"):
            address = int(r[2], 16)
            if address in kernel.instructions:
                kernel.instructions[address].places.add(line)
            else:
                values = {c: number(r[i], f"{path}:{n}") for c, i in header.items()}
                kernel.instructions[address] = Instruction({line}, sass_opcode(r[3]), values)
    return {key: k._replace(instructions=by_offset(k.instructions)) for key, k in kernels.items()}, seen_columns
