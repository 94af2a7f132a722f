#!/usr/bin/python3
"""SQLAlchemy 1.4 (psycopg2) against the ulid extension, the way an
application uses it: a mapped class, create_all, the generated id back
(RETURNING), find by id (text and uuid.UUID), a time-range query on the
index, keyset paging, bulk insert and COPY, ulid_flake as int, NULLs and
SQLSTATEs.  Prints TAP.  Connects with the libpq environment."""
import datetime
import io
import struct
import sys
import uuid

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, declarative_base

# recipe: sqlalchemy types
from sqlalchemy.types import BigInteger, UserDefinedType

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class Ulid(UserDefinedType):
    """A ulid column: str (26 characters) in Python; a uuid.UUID is
    accepted as a parameter too (the same 16 bytes)."""
    cache_ok = True

    def get_col_spec(self, **kw):
        return "ulid"

    def bind_processor(self, dialect):
        def process(value):
            if isinstance(value, uuid.UUID):
                n = value.int
                return "".join(CROCKFORD[(n >> (5 * i)) & 31] for i in range(25, -1, -1))
            return value
        return process

    def result_processor(self, dialect, coltype):
        return None  # psycopg2 gives the 26 characters as str

    class comparator_factory(UserDefinedType.Comparator):
        def in_time_range(self, start, end):
            """id <@ tstzrange(start, end): a time range on the index."""
            return self.op("<@", is_comparison=True)(sa.func.tstzrange(start, end))


class UlidFlake(UserDefinedType):
    """A ulid_flake column: int in Python, bigint on the wire."""
    cache_ok = True

    def get_col_spec(self, **kw):
        return "ulid_flake"

    def bind_expression(self, bindvalue):
        return sa.cast(bindvalue, BigInteger)

    def column_expression(self, col):
        return sa.cast(col, BigInteger)
# recipe: end


Base = declarative_base()


# recipe: sqlalchemy model
class Item(Base):
    __tablename__ = "items"
    id = sa.Column(Ulid, primary_key=True, server_default=sa.text("ulid_generate()"))
    name = sa.Column(sa.Text, nullable=False)
    flake = sa.Column(UlidFlake)
# recipe: end


from tap import check, finish, ulid_uuid


def sqlstate(fn):
    try:
        fn()
        return "no error"
    except DBAPIError as e:
        return e.orig.pgcode


engine = sa.create_engine("postgresql+psycopg2://", future=True)
with engine.begin() as conn:
    conn.execute(sa.text("DROP TABLE IF EXISTS items; DROP EXTENSION IF EXISTS ulid CASCADE; CREATE EXTENSION ulid"))
print(f"# SQLAlchemy {sa.__version__}")

# 1. create_all, rows added, the generated id back
Base.metadata.create_all(engine)
with Session(engine, future=True) as session:
    items = [Item(name=f"new {i}") for i in range(3)]
    session.add_all(items)
    session.commit()
    ids = [item.id for item in items]
    server = session.execute(sa.text("SELECT id::text FROM items ORDER BY id")).scalars().all()
    check(ids == server and all(len(i) == 26 for i in ids),
          f"the generated ids come back (RETURNING): {ids}")

    # 2. find by id: as text, as uuid.UUID
    got = session.get(Item, ids[1].lower())
    check(got is not None and got.name == "new 1", f"session.get(Item, {ids[1].lower()!r}): {got and got.name!r}")
    as_uuid = ulid_uuid(ids[2])
    got = session.execute(sa.select(Item.name).where(Item.id == as_uuid)).scalar_one()
    server_uuid = session.execute(sa.text("SELECT id::uuid::text FROM items WHERE name = 'new 2'")).scalar_one()
    check(got == "new 2" and str(as_uuid) == server_uuid, f"find by id as uuid.UUID {as_uuid}: {got!r}")

    # 5. bulk insert: a multi-row INSERT through the ORM, then COPY (text and binary)
    base = datetime.datetime(2025, 3, 1, tzinfo=datetime.timezone.utc)
    hours = [session.execute(sa.select(sa.func.ulid_generate(base + datetime.timedelta(hours=h)).cast(sa.Text))).scalar_one()
             for h in range(12)]
    session.execute(sa.insert(Item), [{"id": hours[h], "name": f"hour {h}", "flake": 14246757444195114 + h} for h in range(4)])
    session.commit()
    raw = session.connection().connection.cursor()
    raw.copy_expert("COPY items (id, name) FROM STDIN",
                    io.StringIO("".join(f"{hours[h]}\thour {h}\n" for h in range(4, 8))))
    binary = bytearray(b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0))
    for h in range(8, 12):
        name = f"hour {h}".encode()
        binary += struct.pack("!hi", 2, 16) + ulid_uuid(hours[h]).bytes + struct.pack("!i", len(name)) + name
    binary += struct.pack("!h", -1)
    raw.copy_expert("COPY items (id, name) FROM STDIN (FORMAT binary)", io.BytesIO(bytes(binary)))
    session.commit()
    names = session.execute(sa.select(Item.name).where(Item.id.in_(hours)).order_by(Item.id)).scalars().all()
    check(names == [f"hour {h}" for h in range(12)], f"multi-row insert (4), COPY text (4), COPY binary (4): {len(names)} rows in hour order")

    # 3. a time range on the index
    session.execute(sa.text("SET enable_seqscan = off"))
    query = sa.select(Item.id).where(Item.id.in_time_range(base + datetime.timedelta(hours=2),
                                                           base + datetime.timedelta(hours=5))).order_by(Item.id)
    got = session.execute(query).scalars().all()
    check(got == hours[2:5], f"Item.id.in_time_range(02:00, 05:00): {got}")
    compiled = query.compile(dialect=engine.dialect)
    raw.execute("EXPLAIN " + str(compiled), compiled.params)
    plan = [row[0] for row in raw.fetchall()]
    check(any("items_pkey" in line for line in plan), "the plan uses the index: " + " / ".join(plan))

    # 4. ORDER BY id, keyset pagination
    everything = session.execute(sa.select(Item.id).order_by(Item.id)).scalars().all()
    paged, last, pages = [], "00000000000000000000000000", 0
    while True:
        page = session.execute(sa.select(Item).where(Item.id > last).order_by(Item.id).limit(5)).scalars().all()
        if not page:
            break
        pages += 1
        paged += [item.id for item in page]
        last = page[-1].id
    check(len(everything) == 15 and paged == everything == sorted(everything),
          f"keyset pages of 5: {pages} pages, {len(paged)} ids, as ORDER BY id: {paged[0]} .. {paged[-1]}")

    # 6. ulid_flake as int
    item = session.execute(sa.select(Item).where(Item.name == "hour 3")).scalar_one()
    check(item.flake == 14246757444195117, f"ulid_flake read as int: {item.flake}")
    item.flake = 1 << 62
    session.commit()
    text = session.execute(sa.text("SELECT flake::text FROM items WHERE name = 'hour 3'")).scalar_one()
    found = session.execute(sa.select(Item.name).where(Item.flake == 1 << 62)).scalar_one()
    check(text == "4000000000000" and found == "hour 3", f"ulid_flake written as int 2**62: stored {text}, found by it: {found}")
    session.execute(sa.insert(Item), [{"name": "small", "flake": 5}])
    small = session.execute(sa.text("SELECT flake::text FROM items WHERE name = 'small'")).scalar_one()
    check(small == "0000000000005", f"a small int (5) is stored as ulid_flake {small}")

    # 8. NULLs and bad values
    item = Item(name="no flake", flake=None)
    session.add(item)
    session.commit()
    nulls = session.execute(sa.select(sa.func.count()).where(Item.flake.is_(None))).scalar_one()
    check(item.flake is None and nulls == 12, f"NULL ulid_flake in and out: {item.flake}, {nulls} rows without one")
    session.rollback()
    state = sqlstate(lambda: session.get(Item, "01ARZ3NDEKTSV4RRFFQ69G5FAU"))
    session.rollback()
    check(state == "22P02", f"a bad ulid text: SQLSTATE {state}")
    state = sqlstate(lambda: session.execute(sa.insert(Item), [{"name": "negative", "flake": -1}]))
    session.rollback()
    check(state == "22003", f"a negative int for ulid_flake: SQLSTATE {state}")

Base.metadata.drop_all(engine)
finish()
