"""Kernel names written alike, whichever tool wrote them.

The same kernel reaches the comparisons under several names:
    void pipelined_gemm_kernel<128, 256, 32, 64, 64, 16, 8, 4, 16, true, 8, true>(float const*, float const*, float*, int)
        (memscope's CSVs: the C++ runtime's demangler, as c++filt)
    pipelined_gemm_kernel<(int)128, ..., (bool)1, (int)8, (bool)1>      (CUPTI's capture)
    pipelined_gemm_kernel<128,...,true,8,true>                          (Nsight Compute's source page)
    void pipelined_gemm_kernel<128, 256, 32, 64, 64, 16, 8, 4, 16, 1, 8, 1>(const float *, ...)  (Nsight Compute's CSV)
    _Z21pipelined_gemm_kernelILi128E...                                  (CUPTI's Activity API records)
kernel_key() gives all of them one key: the qualified name and its template arguments, without return type,
parameter list or spaces, each literal written plainly (1 and 0 for bools, since Nsight Compute's CSV writes them so; 8 for 8u or
(unsigned int)8u,
-1 for (int)(-1), 65 for (char)65 or 'A'). The parameter list is dropped because the tools disagree on it
(`float const*` against `const float *`) and a kernel's template arguments already tell its instances apart.
Mangled names (Itanium ABI) are demangled by c++filt (binutils) first.
"""
import re
import shutil
import subprocess

from .command import MissingTool

MANGLED = re.compile(r"_Z\w+")
# "(anonymous namespace)" (c++filt) and "<unnamed>" (EDG) would read as a parameter list or a template argument
ANONYMOUS = re.compile(r"\(anonymous namespace\)|<unnamed>")
ANONYMOUS_MARK = "\x00anon\x00"
BOOL = re.compile(r"\(bool\)\s*(?:(true|false|[01])(?!\w)|\(\s*([01])\s*\))|(?<![\w.])(true|false)(?![\w.])")
# A cast of a literal: (int)128, (unsigned int)8u, (char)65, (long)(-1), (MyEnum)2
CAST = re.compile(r"\(\s*[A-Za-z_][\w:]*(?:\s+[A-Za-z_][\w:]*)*\s*\)\s*(\(\s*-?\s*\d[\w]*\s*\)|-?\s*\d[\w]*)")
SUFFIX = re.compile(r"(?<![\w.])(-?\d+)(?:[uU](?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)(?![\w.])")
CHAR = re.compile(r"'(\\?.)'")
ESCAPES = {"\\0": 0, "\\n": 10, "\\t": 9, "\\r": 13, "\\\\": 92, "\\'": 39}
_demangled = {}  # mangled name -> c++filt's name, for every name demangled so far


def demangle(names):
    """Demangles the mangled ones among names (Itanium ABI) in one call of c++filt, into _demangled."""
    mangled = sorted({n.strip() for n in names if MANGLED.fullmatch(n.strip())} - _demangled.keys())
    if not mangled:
        return
    if not shutil.which("c++filt"):
        raise MissingTool(f"c++filt (binutils) is needed to read the mangled name {mangled[0]}, and it is not installed")
    out = subprocess.run(["c++filt"], input="\n".join(mangled) + "\n", capture_output=True, text=True, check=True)
    _demangled.update(zip(mangled, out.stdout.splitlines()))


def split_top(text, stop):
    """The index of the first character in stop outside <> and (), or len(text)."""
    depth = 0
    for i, c in enumerate(text):
        if c in stop and depth == 0:
            return i
        depth += c in "<("
        depth -= c in ">)"
    return len(text)


def without_return_type(text):
    """'void cutlass::Kernel2<...>' -> 'cutlass::Kernel2<...>': the last word outside <> and ()."""
    while True:
        space = split_top(text, " \t")
        if space == len(text):
            return text
        text = text[space + 1:].lstrip()


def plain_literals(text):
    text = BOOL.sub(lambda m: "0" if (m.group(1) or m.group(2) or m.group(3)) in ("0", "false") else "1", text)
    text = CHAR.sub(lambda m: str(ESCAPES.get(m.group(1), ord(m.group(1)[-1]))), text)
    text = CAST.sub(lambda m: m.group(1).strip("() ").replace(" ", ""), text)
    return SUFFIX.sub(r"\1", text)


def kernel_key(name):
    """The key of one kernel name."""
    name = name.strip()
    if MANGLED.fullmatch(name):
        demangle([name])
        name = _demangled.get(name, name)
    text = ANONYMOUS.sub(ANONYMOUS_MARK, name)
    text = text[:split_top(text, "(")].strip()
    text = without_return_type(text)
    text = re.sub(r"\s+", "", plain_literals(text))
    return text.replace(ANONYMOUS_MARK, "(anonymous namespace)")


def kernel_keys(names):
    """{name: key} for many names, with one call of c++filt for all the mangled ones."""
    demangle(names)
    return {name: kernel_key(name) for name in names}
