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


def answer_help(doc):
    """With -h or --help among the arguments, print doc (the script's usage) on standard output and exit 0."""
    if any(argument in ("-h", "--help") for argument in sys.argv[1:]):
        print(doc.strip())
        sys.exit(0)


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
