#!/usr/bin/python3
"""psycopg 3 against the ulid extension: ulid and ulid_flake values in text
and binary format, as parameters, results and COPY, checked byte for byte
against what the server stored.  Prints TAP.  Connects with the libpq
environment (PGHOST, PGPORT, PGUSER, PGDATABASE)."""
import struct

import psycopg
from psycopg.adapt import Dumper, Loader

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def ulid_bytes(text):
    """Independent decode of a ULID's text to its 16 bytes."""
    value = 0
    for ch in text.upper():
        value = value * 32 + ALPHABET.index(ch)
    return value.to_bytes(16, "big")


def flake_int(text):
    value = 0
    for ch in text.upper():
        value = value * 32 + ALPHABET.index(ch)
    return value


class Ulid(bytes):
    """16 raw bytes that psycopg sends as a binary ulid parameter."""


from tap import check, finish


def binary_copy(rows, fields):
    """A COPY binary stream: signature, flags, extension, tuples, trailer."""
    out = bytearray(b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0))
    for row in rows:
        out += struct.pack("!h", len(fields))
        for value in row:
            out += struct.pack("!i", len(value)) + value
    out += struct.pack("!h", -1)
    return bytes(out)


def binary_copy_rows(data):
    """Parse a COPY binary stream of one-column rows into their raw values."""
    assert data.startswith(b"PGCOPY\n\xff\r\n\x00")
    pos = 11
    _flags, ext = struct.unpack("!ii", data[pos:pos + 8])
    pos += 8 + ext
    rows = []
    while True:
        (nfields,) = struct.unpack("!h", data[pos:pos + 2])
        pos += 2
        if nfields == -1:
            return rows
        (length,) = struct.unpack("!i", data[pos:pos + 4])
        pos += 4
        rows.append(data[pos:pos + length])
        pos += length


with psycopg.connect(autocommit=True) as conn:
    conn.execute("DROP EXTENSION IF EXISTS ulid CASCADE")
    conn.execute("CREATE EXTENSION ulid")
    ulid_oid, flake_oid = conn.execute(
        "SELECT 'ulid'::regtype::oid, 'ulid_flake'::regtype::oid").fetchone()

    class UlidBinaryDumper(Dumper):
        format = psycopg.pq.Format.BINARY
        oid = ulid_oid

        def dump(self, obj):
            return bytes(obj)

    class RawBinaryLoader(Loader):
        format = psycopg.pq.Format.BINARY

        def load(self, data):
            return bytes(data)

    conn.adapters.register_dumper(Ulid, UlidBinaryDumper)
    conn.adapters.register_loader(ulid_oid, RawBinaryLoader)
    conn.adapters.register_loader(flake_oid, RawBinaryLoader)

    conn.execute("CREATE TABLE c (n int, id ulid, f ulid_flake)")
    samples = ["01ARZ3NDEKTSV4RRFFQ69G5FAV", "00000000000000000000000000",
               "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "01JQ4T23H220KM7X0B3V1109DQ"]
    flakes = ["00CMXB6TAK4SA", "0000000000000", "7ZZZZZZZZZZZZ", "128GGYHYYK08N"]

    # text parameters in, text results out
    for i, (u, f) in enumerate(zip(samples, flakes)):
        conn.execute("INSERT INTO c VALUES (%s, %s::ulid, %s::ulid_flake)", (i, u.lower(), f))
    rows = conn.execute("SELECT id::text, f::text FROM c ORDER BY n").fetchall()
    check(rows == list(zip(samples, flakes)), "text parameters (lower case) read back canonical")
    stored = conn.execute("SELECT id::bytea, f::bigint FROM c ORDER BY n").fetchall()
    check([bytes(b) for b, _ in stored] == [ulid_bytes(u) for u in samples],
          "the server stored the 16 bytes an independent decoder gives")
    check([v for _, v in stored] == [flake_int(f) for f in flakes],
          "the server stored the ulid_flake integers an independent decoder gives")

    # binary results
    with conn.cursor(binary=True) as cur:
        cur.execute("SELECT id, f FROM c ORDER BY n")
        got = cur.fetchall()
    check([u for u, _ in got] == [ulid_bytes(u) for u in samples],
          "binary results: ulid is the 16 raw bytes")
    check([f for _, f in got] == [struct.pack("!q", flake_int(f)) for f in flakes],
          "binary results: ulid_flake is 8 bytes big-endian")

    # binary parameters
    conn.execute("TRUNCATE c")
    for i, u in enumerate(samples):
        conn.execute("INSERT INTO c (n, id) VALUES (%s, %b)", (i, Ulid(ulid_bytes(u))))
    rows = conn.execute("SELECT id::text FROM c ORDER BY n").fetchall()
    check([r[0] for r in rows] == samples, "binary ulid parameters stored as sent")
    # a binary value of the wrong length, as for uuid: too short 08P01
    # (insufficient data left in message), too long 22P03 (incorrect binary
    # data format)
    for length, expected in ((15, "08P01"), (17, "22P03")):
        try:
            conn.execute("SELECT %b", (Ulid(b"\x01" * length),))
            check(False, f"a {length}-byte binary ulid parameter is rejected")
        except psycopg.Error as e:
            check(e.sqlstate == expected, f"a {length}-byte binary ulid parameter: {e.sqlstate}, expected {expected}")

    # COPY, text format, both directions
    conn.execute("TRUNCATE c")
    with conn.cursor() as cur:
        with cur.copy("COPY c (n, id, f) FROM STDIN") as copy:
            for i, (u, f) in enumerate(zip(samples, flakes)):
                copy.write_row((i, u, f))
        out = bytearray()
        with cur.copy("COPY (SELECT id, f FROM c ORDER BY n) TO STDOUT") as copy:
            for block in copy:
                out += block
    check(out.decode() == "".join(f"{u}\t{f}\n" for u, f in zip(samples, flakes)),
          "COPY text in and out")

    # COPY, binary format, both directions
    conn.execute("TRUNCATE c")
    with conn.cursor() as cur:
        with cur.copy("COPY c (id) FROM STDIN (FORMAT binary)") as copy:
            copy.write(binary_copy([[ulid_bytes(u)] for u in samples], ["id"]))
        out = bytearray()
        with cur.copy("COPY (SELECT id FROM c ORDER BY id) TO STDOUT (FORMAT binary)") as copy:
            for block in copy:
                out += block
    check(binary_copy_rows(bytes(out)) == sorted(ulid_bytes(u) for u in samples),
          "COPY binary in and out: 16 raw bytes a value")
    check(conn.execute("SELECT count(*) FROM c WHERE id::text = ANY(%s)", (samples,)).fetchone()[0] == 4,
          "COPY binary stored every ulid intact")
    with conn.cursor() as cur:
        with cur.copy("COPY (SELECT f FROM (VALUES ('00CMXB6TAK4SA'::ulid_flake)) v(f)) TO STDOUT (FORMAT binary)") as copy:
            out = b"".join(bytes(b) for b in copy)
    check(binary_copy_rows(out) == [struct.pack("!q", 14246757444195114)],
          "COPY binary out of ulid_flake: 8 bytes big-endian")
    try:
        with conn.cursor() as cur:
            with cur.copy("COPY c (f) FROM STDIN (FORMAT binary)") as copy:
                copy.write(binary_copy([[struct.pack("!q", -1)]], ["f"]))
        check(False, "a negative binary ulid_flake is rejected")
    except psycopg.Error as e:
        check(e.sqlstate == "22003", f"a negative binary ulid_flake is rejected ({e.sqlstate})")

    # generated keys come back through the driver in creation order
    conn.execute("CREATE TABLE g (id ulid PRIMARY KEY DEFAULT ulid_generate(), n int)")
    ids = [conn.execute("INSERT INTO g (n) VALUES (%s) RETURNING id::text", (i,)).fetchone()[0]
           for i in range(100)]
    check(ids == sorted(ids) and len(set(ids)) == 100, "100 generated ids, increasing, distinct")
    conn.execute("DROP TABLE c, g")

finish()
