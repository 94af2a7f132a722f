#!/usr/bin/python3
"""psycopg 3 against the ulid extension, the way an application uses it:
DDL, RETURNING, find by id (text and uuid.UUID), a time-range query on the
index, keyset paging, COPY text and binary, ulid_flake as int, ulid as
uuid.UUID in binary results, NULLs and SQLSTATEs.  Prints TAP.  Connects
with the libpq environment.  (psycopg_test.py checks the wire formats.)"""
import datetime
import uuid

import psycopg

# recipe: psycopg adapters
from psycopg.adapt import Loader
from psycopg.types import TypeInfo
from psycopg.types.numeric import Int8BinaryLoader, Int8Dumper
from psycopg.types.uuid import UUIDBinaryLoader

TO_BASE32 = str.maketrans("0123456789ABCDEFGHJKMNPQRSTVWXYZ", "0123456789ABCDEFGHIJKLMNOPQRSTUV")


class UlidFlakeLoader(Loader):
    """ulid_flake's 13 characters to an int."""

    def load(self, data):
        return int(bytes(data).decode().translate(TO_BASE32), 32)


def register_ulid(conn):
    """ulid: str (26 characters) in text results, uuid.UUID in binary ones;
    a uuid.UUID parameter is sent as a uuid (ulid = uuid is an operator).
    ulid_flake: int both ways (ints are sent as int8, which ulid_flake
    takes on assignment and compares with)."""
    ulid, flake = TypeInfo.fetch(conn, "ulid"), TypeInfo.fetch(conn, "ulid_flake")
    conn.adapters.register_loader(ulid.oid, UUIDBinaryLoader)
    conn.adapters.register_loader(flake.oid, UlidFlakeLoader)
    conn.adapters.register_loader(flake.oid, Int8BinaryLoader)
    conn.adapters.register_dumper(int, Int8Dumper)
# recipe: end


from tap import check, finish


def sqlstate(fn):
    try:
        fn()
        return "no error"
    except psycopg.Error as e:
        return e.sqlstate


with psycopg.connect(autocommit=True) as conn:
    conn.execute("DROP TABLE IF EXISTS items")
    conn.execute("DROP EXTENSION IF EXISTS ulid CASCADE")
    conn.execute("CREATE EXTENSION ulid")
    register_ulid(conn)

    # 1. DDL, rows inserted, the generated ids back
    conn.execute("CREATE TABLE items (id ulid PRIMARY KEY DEFAULT ulid_generate(), name text NOT NULL, flake ulid_flake)")
    ids = [conn.execute("INSERT INTO items (name) VALUES (%s) RETURNING id", (f"new {i}",)).fetchone()[0] for i in range(3)]
    server = [r[0] for r in conn.execute("SELECT id::text FROM items ORDER BY id")]
    check(ids == server and all(isinstance(i, str) and len(i) == 26 for i in ids), f"INSERT ... RETURNING id: {ids}")

    # 2. find by id: text, uuid.UUID (sent as a uuid)
    row = conn.execute("SELECT name FROM items WHERE id = %s", (ids[1].lower(),)).fetchone()
    check(row == ("new 1",), f"find by id {ids[1].lower()!r}: {row}")
    with conn.cursor(binary=True) as cur:
        as_uuid = cur.execute("SELECT id FROM items WHERE name = 'new 2'").fetchone()[0]
    row = conn.execute("SELECT name, id::uuid FROM items WHERE id = %s", (as_uuid,)).fetchone()
    check(isinstance(as_uuid, uuid.UUID) and row == ("new 2", as_uuid),
          f"a binary result is a uuid.UUID ({as_uuid}); find by it: {row[0]!r}")

    # 5. bulk: COPY text (write_row) and binary (set_types: uuid.UUID into ulid)
    base = datetime.datetime(2025, 3, 1, tzinfo=datetime.timezone.utc)
    hours = [conn.execute("SELECT ulid_generate(%s)::text", (base + datetime.timedelta(hours=h),)).fetchone()[0] for h in range(12)]
    with conn.cursor() as cur:
        with cur.copy("COPY items (id, name) FROM STDIN") as copy:
            for h in range(6):
                copy.write_row((hours[h], f"hour {h}"))
    hours_uuid = {h: conn.execute("SELECT %s::ulid::uuid", (hours[h],)).fetchone()[0] for h in range(6, 12)}
    with conn.cursor() as cur:
        with cur.copy("COPY items (id, name, flake) FROM STDIN (FORMAT binary)") as copy:
            copy.set_types(["uuid", "text", "int8"])
            for h in range(6, 12):
                copy.write_row((hours_uuid[h], f"hour {h}", 14246757444195114 + h))
    names = [r[0] for r in conn.execute("SELECT name FROM items WHERE id = ANY(%s::ulid[]) ORDER BY id", (hours,))]
    check(names == [f"hour {h}" for h in range(12)], f"COPY text (6) and binary (6, uuid.UUID and int values): {len(names)} rows in hour order")

    # 3. a time range on the index
    conn.execute("SET enable_seqscan = off")
    query = "SELECT id FROM items WHERE id <@ tstzrange(%s, %s) ORDER BY id"
    bounds = (base + datetime.timedelta(hours=2), base + datetime.timedelta(hours=5))
    got = [r[0] for r in conn.execute(query, bounds)]
    check(got == hours[2:5], f"id <@ tstzrange(02:00, 05:00): {got}")
    plan = " / ".join(r[0] for r in conn.execute("EXPLAIN " + query, bounds))
    check("items_pkey" in plan, f"the plan uses the index: {plan}")

    # 4. ORDER BY id, keyset pagination
    everything = [r[0] for r in conn.execute("SELECT id FROM items ORDER BY id")]
    paged, last, pages = [], "00000000000000000000000000", 0
    while True:
        page = [r[0] for r in conn.execute("SELECT id FROM items WHERE id > %s ORDER BY id LIMIT 4", (last,))]
        if not page:
            break
        pages += 1
        paged += page
        last = page[-1]
    check(len(everything) == 15 and paged == everything == sorted(everything),
          f"keyset pages of 4: {pages} pages, {len(paged)} ids, as ORDER BY id: {paged[0]} .. {paged[-1]}")

    # 6. ulid_flake as int, text and binary results
    flake = conn.execute("SELECT flake FROM items WHERE name = 'hour 9'").fetchone()[0]
    check(flake == 14246757444195123, f"ulid_flake (binary COPY of an int8) read as int: {flake}")
    row = conn.execute("UPDATE items SET flake = %s WHERE name = 'hour 3' RETURNING flake, flake::text", (1 << 62,)).fetchone()
    with conn.cursor(binary=True) as cur:
        binary = cur.execute("SELECT flake FROM items WHERE flake = %s", (1 << 62,)).fetchone()[0]
    check(row == (1 << 62, "4000000000000") and binary == 1 << 62, f"ulid_flake written as int 2**62: {row}, binary result {binary}")
    row = conn.execute("INSERT INTO items (name, flake) VALUES ('small', %s) RETURNING flake::text", (5,)).fetchone()
    check(row == ("0000000000005",), f"a small int (5) is stored as {row[0]}")

    # 8. NULLs and bad values
    row = conn.execute("INSERT INTO items (name, flake) VALUES ('no flake', %s) RETURNING id IS NOT NULL, flake", (None,)).fetchone()
    check(row == (True, None), f"NULL ulid_flake in and out: {row[1]}")
    state = sqlstate(lambda: conn.execute("SELECT * FROM items WHERE id = %s", ("01ARZ3NDEKTSV4RRFFQ69G5FAU",)))
    check(state == "22P02", f"a bad ulid text: SQLSTATE {state}")
    state = sqlstate(lambda: conn.execute("INSERT INTO items (name, flake) VALUES ('negative', %s)", (-1,)))
    check(state == "22003", f"a negative int for ulid_flake: SQLSTATE {state}")
    conn.execute("DROP TABLE items")
finish()
