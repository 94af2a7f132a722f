// Drizzle ORM (node-postgres) against the ulid extension, the way an
// application uses it: the schema (test/clients/drizzle/schema.js, with
// customType columns), its migration run by drizzle's migrator, insert
// ... returning, find by id, a time-range query on the index, keyset
// paging, a multi-row insert, ulid_flake as BigInt, NULLs and SQLSTATEs.
// Prints TAP.  Connects with the libpq environment.
'use strict';
const path = require('path');
const { Client } = require('pg');
const { drizzle } = require('drizzle-orm/node-postgres');
const { migrate } = require('drizzle-orm/node-postgres/migrator');
const { asc, eq, gt, isNull, sql, inArray } = require('drizzle-orm');
const { items, createdBetween } = require('./drizzle/schema');
const { check, done, fail } = require('./tap');

async function main() {
  const client = new Client();
  await client.connect();
  await client.query('DROP TABLE IF EXISTS items; DROP SCHEMA IF EXISTS drizzle CASCADE; DROP EXTENSION IF EXISTS ulid CASCADE');
  const db = drizzle(client);

  // 1. the migration, rows inserted, the generated ids back
  await migrate(db, { migrationsFolder: path.join(__dirname, 'drizzle', 'migrations') });
  const def = (await client.query("SELECT column_default, udt_name FROM information_schema.columns WHERE table_name = 'items' AND column_name = 'id'")).rows[0];
  check(def.column_default === 'ulid_generate()' && def.udt_name === 'ulid', `drizzle's migrate(): id ${def.udt_name} DEFAULT ${def.column_default}`);
  const ids = [];
  for (let i = 0; i < 3; i++) {
    const [row] = await db.insert(items).values({ name: `new ${i}` }).returning({ id: items.id });
    ids.push(row.id);
  }
  const server = (await client.query('SELECT id::text AS t FROM items ORDER BY id')).rows.map((r) => r.t);
  check(ids.join() === server.join() && ids.every((id) => /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(id)),
    `db.insert(items).values(...).returning(): ${ids.join(', ')}`);

  // 2. find by id (text; JavaScript has no uuid object)
  const [found] = await db.select().from(items).where(eq(items.id, ids[1].toLowerCase()));
  check(found && found.name === 'new 1' && found.id === ids[1], `select().where(eq(items.id, '${ids[1].toLowerCase()}')): ${found && found.name}, id ${found && found.id}`);

  // 5. bulk: one multi-row insert, ids one an hour on 2025-03-01
  const base = Date.UTC(2025, 2, 1);
  const hours = [];
  for (let h = 0; h < 12; h++) {
    hours.push((await db.execute(sql`SELECT ulid_generate(${new Date(base + h * 3600e3)})::text AS id`)).rows[0].id);
  }
  const inserted = await db.insert(items).values(hours.map((id, h) => ({ id, name: `hour ${h}`, flake: 14246757444195114n + BigInt(h) })))
    .returning();
  check(inserted.length === 12 && inserted[3].id === hours[3] && inserted[3].flake === 14246757444195117n,
    `a multi-row insert of 12, returning(): ${inserted[3].id}, flake ${inserted[3].flake}n`);

  // 3. a time range on the index
  await client.query('SET enable_seqscan = off');
  const range = db.select({ id: items.id }).from(items)
    .where(createdBetween(items.id, new Date(base + 2 * 3600e3), new Date(base + 5 * 3600e3))).orderBy(asc(items.id));
  const got = (await range).map((r) => r.id);
  check(got.join() === hours.slice(2, 5).join(), `where(createdBetween(items.id, 02:00, 05:00)): ${got.join(', ')}`);
  const query = range.toSQL();
  const plan = (await client.query(`EXPLAIN ${query.sql}`, query.params)).rows.map((r) => r['QUERY PLAN']).join(' / ');
  check(plan.includes('items_pkey'), `the plan uses the index: ${query.sql} / ${plan}`);

  // 4. ORDER BY id, keyset pagination
  const all = (await db.select({ id: items.id }).from(items).orderBy(asc(items.id))).map((r) => r.id);
  const paged = [];
  let last = '00000000000000000000000000';
  let pages = 0;
  for (;;) {
    const page = await db.select().from(items).where(gt(items.id, last)).orderBy(asc(items.id)).limit(4);
    if (page.length === 0) break;
    pages += 1;
    paged.push(...page.map((r) => r.id));
    last = page[page.length - 1].id;
  }
  check(all.length === 15 && paged.join() === all.join(),
    `keyset pages of 4: ${pages} pages, ${paged.length} ids, as orderBy(asc(items.id)): ${all[0]} .. ${all[14]}`);

  // 6. ulid_flake as BigInt
  const [row] = await db.select({ flake: items.flake }).from(items).where(eq(items.name, 'hour 3'));
  check(row.flake === 14246757444195117n, `ulid_flake read as BigInt: ${row.flake}n`);
  await db.update(items).set({ flake: 1n << 62n }).where(eq(items.name, 'hour 3'));
  const back = await db.select({ name: items.name, text: sql`${items.flake}::text` }).from(items).where(eq(items.flake, 1n << 62n));
  check(back.length === 1 && back[0].name === 'hour 3' && back[0].text === '4000000000000',
    `ulid_flake written from BigInt 2n**62n: ${back[0] && back[0].text}, found by eq(items.flake, 2n**62n)`);

  // 8. NULLs and bad values
  const [nullRow] = await db.insert(items).values({ name: 'no flake', flake: null }).returning();
  const nulls = await db.select({ id: items.id }).from(items).where(isNull(items.flake));
  check(nullRow.flake === null && nulls.length === 4, `NULL ulid_flake in and out: ${nullRow.flake}, ${nulls.length} rows without one`);
  // drizzle wraps the driver's error (DrizzleQueryError): the SQLSTATE is on its cause
  const causeState = (promise) => promise.then(() => 'no error', (e) => `${e.constructor.name}, cause.code ${e.cause && e.cause.code}`);
  let state = await causeState(db.select().from(items).where(eq(items.id, '01ARZ3NDEKTSV4RRFFQ69G5FAU')));
  check(state === 'DrizzleQueryError, cause.code 22P02', `a bad ulid text: ${state}`);
  state = await causeState(db.select().from(items).where(inArray(items.id, ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'not a ulid'])));
  check(state === 'DrizzleQueryError, cause.code 22P02', `a bad ulid text in inArray: ${state}`);
  let thrown = 'nothing';
  try {
    await db.insert(items).values({ name: 'negative', flake: -1n });
  } catch (e) {
    thrown = e.constructor.name;
  }
  check(thrown === 'RangeError', `a negative BigInt for ulid_flake is refused before the database: ${thrown}`);
  await client.query('DROP TABLE items; DROP SCHEMA drizzle CASCADE');
  await client.end();
  done();
}

main().catch(fail);
