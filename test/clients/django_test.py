#!/usr/bin/python3
"""Django 3.2 (psycopg2) against the ulid extension, the way an application
uses it: a model with a ulid primary key and a ulid_flake field
(test/clients/django/ulidapp), its migration, the generated id back
(RETURNING), find by id (text and uuid.UUID), a time-range lookup on the
index, keyset paging, bulk_create and COPY, NULLs and SQLSTATEs.  Prints
TAP.  Connects with the libpq environment."""
import datetime
import io
import os
import struct
import sys
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "django"))
sys.dont_write_bytecode = True

import django
from django.conf import settings

settings.configure(
    DATABASES={"default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ["PGDATABASE"],
        "HOST": os.environ.get("PGHOST", ""),
        "PORT": os.environ.get("PGPORT", ""),
        "USER": os.environ.get("PGUSER", ""),
    }},
    INSTALLED_APPS=["ulidapp"],
    USE_TZ=True,
)
django.setup()

from django.core.management import call_command
from django.db import DataError, connection, transaction

from ulidapp.models import Item

from tap import check, finish, ulid_uuid


def sqlstate(fn):
    try:
        with transaction.atomic():
            fn()
        return "no error"
    except DataError as e:
        return e.__cause__.pgcode


def sql(query, *params):
    with connection.cursor() as cur:
        cur.execute(query, params)
        return [row[0] for row in cur.fetchall()]


print(f"# Django {django.get_version()}")
with connection.cursor() as cur:
    cur.execute("DROP TABLE IF EXISTS ulidapp_item, django_migrations; DROP EXTENSION IF EXISTS ulid CASCADE")

# 1. the migration, objects created, the generated id back
out = io.StringIO()
call_command("migrate", "ulidapp", stdout=out)
check("Applying ulidapp.0001_initial... OK" in out.getvalue(), "migrate: " + " ".join(out.getvalue().split()))
out = io.StringIO()
try:
    call_command("makemigrations", "ulidapp", "--check", "--dry-run", stdout=out)
    check(True, "makemigrations --check: the migration matches the model")
except SystemExit:
    check(False, "makemigrations --check: " + out.getvalue())
items = [Item.objects.create(name=f"new {i}") for i in range(3)]
ids = [item.id for item in items]
check(ids == sql("SELECT id::text FROM ulidapp_item ORDER BY id") and all(len(i) == 26 for i in ids),
      f"Item.objects.create() gets the generated id (RETURNING): {ids}")
check(sql("SELECT column_default FROM information_schema.columns WHERE table_name = 'ulidapp_item' AND column_name = 'id'")
      == ["ulid_generate()"], "the migration set DEFAULT ulid_generate()")

# 2. find by id: text, uuid.UUID (psycopg2 sends it as a uuid)
got = Item.objects.get(pk=ids[1].lower())
check(got.name == "new 1" and got.id == ids[1], f"Item.objects.get(pk={ids[1].lower()!r}): {got.name!r}, id {got.id}")
as_uuid = ulid_uuid(ids[2])
got = Item.objects.get(id=as_uuid)
check(got.name == "new 2" and sql("SELECT id::uuid::text FROM ulidapp_item WHERE name = 'new 2'") == [str(as_uuid)],
      f"Item.objects.get(id=uuid.UUID('{as_uuid}')): {got.name!r}")

# 5. bulk: bulk_create (one multi-row INSERT ... RETURNING), then COPY text and binary
base = datetime.datetime(2025, 3, 1, tzinfo=datetime.timezone.utc)
hours = [sql("SELECT ulid_generate(%s)::text", base + datetime.timedelta(hours=h))[0] for h in range(12)]
created = Item.objects.bulk_create([Item(id=hours[h], name=f"hour {h}", flake=14246757444195114 + h) for h in range(4)])
later = Item.objects.bulk_create([Item(name=f"bulk {i}") for i in range(3)])
check(len(created) == 4 and all(len(item.id) == 26 for item in later) and
      sorted(item.id for item in later) == sql("SELECT id::text FROM ulidapp_item WHERE name LIKE 'bulk %%' ORDER BY id"),
      f"bulk_create: 4 with ids, 3 with generated ids returned: {[item.id for item in later]}")
with connection.cursor() as cur:
    cur.copy_expert("COPY ulidapp_item (id, name) FROM STDIN",
                    io.StringIO("".join(f"{hours[h]}\thour {h}\n" for h in range(4, 8))))
    binary = bytearray(b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0))
    for h in range(8, 12):
        name = f"hour {h}".encode()
        binary += struct.pack("!hi", 2, 16) + ulid_uuid(hours[h]).bytes + struct.pack("!i", len(name)) + name
    binary += struct.pack("!h", -1)
    cur.copy_expert("COPY ulidapp_item (id, name) FROM STDIN (FORMAT binary)", io.BytesIO(bytes(binary)))
names = list(Item.objects.filter(id__in=hours).order_by("id").values_list("name", flat=True))
check(names == [f"hour {h}" for h in range(12)], f"bulk_create (4), COPY text (4), COPY binary (4): {len(names)} rows in hour order")

# 3. a time range on the index: the within lookup
with connection.cursor() as cur:
    cur.execute("SET enable_seqscan = off")
query = Item.objects.filter(id__within=(base + datetime.timedelta(hours=2), base + datetime.timedelta(hours=5))).order_by("id")
got = list(query.values_list("id", flat=True))
check(got == hours[2:5], f"Item.objects.filter(id__within=(02:00, 05:00)): {got}")
plan = query.explain()
check("items_pkey" in plan or "ulidapp_item_pkey" in plan, "QuerySet.explain() uses the index: " + " / ".join(plan.splitlines()))

# 4. ORDER BY id, keyset pagination
everything = list(Item.objects.order_by("id").values_list("id", flat=True))
paged, last, pages = [], "00000000000000000000000000", 0
while True:
    page = list(Item.objects.filter(id__gt=last).order_by("id")[:5])
    if not page:
        break
    pages += 1
    paged += [item.id for item in page]
    last = page[-1].id
check(len(everything) == 18 and paged == everything == sorted(everything),
      f"keyset pages of 5: {pages} pages, {len(paged)} ids, as order_by('id'): {paged[0]} .. {paged[-1]}")

# 6. ulid_flake as int
item = Item.objects.get(name="hour 3")
check(item.flake == 14246757444195117, f"ulid_flake read as int: {item.flake}")
item.flake = 1 << 62
item.save()
check(sql("SELECT flake::text FROM ulidapp_item WHERE name = 'hour 3'") == ["4000000000000"] and
      Item.objects.get(flake=1 << 62).name == "hour 3", f"ulid_flake saved as int 2**62: stored as 4000000000000, found by it")
small = Item.objects.create(name="small", flake=5)
check(sql("SELECT flake::text FROM ulidapp_item WHERE name = 'small'") == ["0000000000005"] and
      Item.objects.get(flake=5).id == small.id, "a small int (5) is stored as ulid_flake 0000000000005 and found by it")
small.flake = 7
small.save(update_fields=["flake"])
check(sql("SELECT flake::text FROM ulidapp_item WHERE name = 'small'") == ["0000000000007"], "save() of a small int (7): 0000000000007")

# 8. NULLs and bad values
item = Item.objects.create(name="no flake")
again = Item.objects.get(pk=item.pk)
check(again.flake is None and Item.objects.filter(flake__isnull=True).count() == 15,
      f"NULL ulid_flake in and out: {again.flake}, {Item.objects.filter(flake__isnull=True).count()} rows without one")
state = sqlstate(lambda: Item.objects.get(pk="01ARZ3NDEKTSV4RRFFQ69G5FAU"))
check(state == "22P02", f"a bad ulid text: SQLSTATE {state}")
state = sqlstate(lambda: Item.objects.create(name="negative", flake=-1))
check(state == "22003", f"a negative int for ulid_flake: SQLSTATE {state}")

call_command("migrate", "ulidapp", "zero", stdout=io.StringIO())
check(sql("SELECT count(*) FROM pg_class WHERE relname = 'ulidapp_item'") == [0], "migrate ulidapp zero drops the table")
finish()
