"""How a comparison refuses: a message naming the problem on standard error, and the house's exit code."""
import sys


class Refusal(Exception):
    """The comparison cannot be made; code is the exit status."""

    def __init__(self, message, code=2):
        super().__init__(message)
        self.code = code


class BadInput(Refusal):
    """An unreadable, malformed or unexpected input file (exit 2)."""


class MissingTool(Refusal):
    """A program the comparison needs is not installed (exit 3)."""

    def __init__(self, message):
        super().__init__(message, 3)


def arguments(doc, usage, options=()):
    """The command line's arguments: -h or --help anywhere prints doc on standard output and exits 0; an option
    other than those named is bad input, named with the usage."""
    args = sys.argv[1:]
    if "-h" in args or "--help" in args:
        print(doc.strip())
        sys.exit(0)
    unknown = [a for a in args if a.startswith("-") and len(a) > 1 and a not in options]
    if unknown:
        raise BadInput(f"unknown option {unknown[0]}\n{usage}")
    return args


def run(program, main):
    """Exit with main()'s status, or print program's refusal and exit with its code."""
    try:
        status = main()
    except Refusal as e:
        print(f"{program}: {e}", file=sys.stderr)
        status = e.code
    except OSError as e:  # a file that cannot be opened is bad input, named by the message
        print(f"{program}: {e}", file=sys.stderr)
        status = 2
    sys.exit(status)
