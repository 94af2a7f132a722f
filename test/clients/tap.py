"""What the Python client suites share: TAP lines, and the uuid a ULID's
text stands for, computed here rather than by the server under test."""
import uuid

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_checks = 0


def check(ok, description):
    """Prints "ok N - description" or "not ok N - description"."""
    global _checks
    _checks += 1
    print(f"{'ok' if ok else 'not ok'} {_checks} - {description}")


def finish():
    """Prints the TAP plan, "1..N" for the N checks made: the last line."""
    print(f"1..{_checks}")


def ulid_uuid(text):
    """The uuid with the 128 bits of a ULID's text."""
    value = 0
    for ch in text.upper():
        value = value * 32 + CROCKFORD.index(ch)
    return uuid.UUID(int=value)
