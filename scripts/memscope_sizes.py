"""A results row's size as memscope names it (harness/results/product_shape.h), for the scripts that read a results
folder: a square of width W is "W=<W>"; a product of another shape (width 0, its rows, cols and inner in the file's
last three columns) is "<rows>x<cols>x<inner>"; a file written before those columns holds squares. A job's NVTX range
is "<variant> <label>". A script imports it from scripts/, beside itself."""


def size_label(row):
    """The label of a row of summary.csv, samples.csv, metrics.csv or stalls.csv (a dict by column name)."""
    rows = row.get("rows") or "0"
    if row["width"] != "0" or rows == "0":
        return f"W={row['width']}"
    return f"{rows}x{row['cols']}x{row['inner']}"


def job_name(row):
    """The job's NVTX range name: "<variant> W=<width>", "<variant> <rows>x<cols>x<inner>"."""
    return f"{row['variant']} {size_label(row)}"


def parse_size(text):
    """A size as -s takes it ("4096", "8192x3072x1024") as its label, or None when it is neither."""
    parts = text.split("x")
    if len(parts) not in (1, 3) or not all(p.isdigit() for p in parts):
        return None
    return f"W={int(parts[0])}" if len(parts) == 1 else "x".join(str(int(p)) for p in parts)
