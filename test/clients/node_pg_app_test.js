// node-postgres (with pg-copy-streams and ulidx) against the ulid extension,
// the way an application uses it: DDL, RETURNING, find by id, a time-range
// query on the index, keyset paging, COPY text and binary, ulid_flake as
// BigInt, ulidx's view of the values, NULLs and SQLSTATEs.  Prints TAP.
// Connects with the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE).
'use strict';
const { Client } = require('pg');
const { from: copyFrom } = require('pg-copy-streams');
const { pipeline } = require('stream/promises');
const { Readable } = require('stream');
const { decodeTime, isValid, ulidToUUID, ulid, monotonicFactory } = require('ulidx');
const { registerUlidTypes, flakeToText } = require('./ulid_types');
const { check, done, fail, sqlstate } = require('./tap');

async function main() {
  const db = new Client();
  await db.connect();
  await db.query('DROP TABLE IF EXISTS items; DROP EXTENSION IF EXISTS ulid CASCADE; CREATE EXTENSION ulid');
  await registerUlidTypes(db);

  // 1. DDL, rows inserted, the generated ids back
  await db.query(`CREATE TABLE items (id ulid PRIMARY KEY DEFAULT ulid_generate(),
    name text NOT NULL, flake ulid_flake)`);
  const ids = [];
  for (let i = 0; i < 3; i++) {
    ids.push((await db.query('INSERT INTO items (name) VALUES ($1) RETURNING id', [`new ${i}`])).rows[0].id);
  }
  const server = (await db.query('SELECT id::text AS t FROM items ORDER BY id')).rows.map((r) => r.t);
  check(JSON.stringify(ids) === JSON.stringify(server) && ids.every((id) => isValid(id)),
    `INSERT ... RETURNING id: ${ids.join(', ')}, each valid for ulidx`);

  // 7. ulidx: the same text, bytes (its uuid form) and time as the server's
  const { rows: [s] } = await db.query(
    'SELECT id::uuid::text AS uuid, ulid_unix_ms(id)::float8 AS ms FROM items WHERE id = $1', [ids[0]]);
  check(ulidToUUID(ids[0]).toLowerCase() === s.uuid && decodeTime(ids[0]) === s.ms,
    `ulidx: ulidToUUID ${ulidToUUID(ids[0]).toLowerCase()} = the server's id::uuid, decodeTime ${decodeTime(ids[0])} = ulid_unix_ms`);
  const fromJs = ulid(Date.UTC(2025, 2, 1, 12));
  const { rows: [t] } = await db.query("SELECT $1::ulid::timestamptz = '2025-03-01 12:00Z' AS same, $1::ulid::text AS text", [fromJs]);
  check(t.same && t.text === fromJs, `an id made by ulidx (${fromJs}) reads back the same, at its time`);

  // 2. find by id: as text (lower case too), and ulidx's id
  let { rows } = await db.query('SELECT name FROM items WHERE id = $1', [ids[1].toLowerCase()]);
  check(rows.length === 1 && rows[0].name === 'new 1', `find by id ${ids[1].toLowerCase()}: ${rows[0] && rows[0].name}`);

  // 5. bulk: COPY text and binary; ids made by ulidx, one an hour on 2025-03-01
  const base = Date.UTC(2025, 2, 1);
  const next = monotonicFactory();
  const hours = Array.from({ length: 12 }, (_, h) => next(base + h * 3600e3));
  await pipeline(Readable.from([hours.slice(0, 6).map((id, h) => `${id}\thour ${h}\t${flakeToText(14246757444195114n + BigInt(h))}\n`).join('')]),
    db.query(copyFrom('COPY items (id, name, flake) FROM STDIN')));
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  hours.slice(6).forEach((id, i) => {
    const name = Buffer.from(`hour ${i + 6}`);
    const head = Buffer.alloc(6);
    head.writeInt16BE(2, 0);
    head.writeInt32BE(16, 2);
    const len = Buffer.alloc(4);
    len.writeInt32BE(name.length);
    parts.push(head, Buffer.from(ulidToUUID(id).replace(/-/g, ''), 'hex'), len, name);
  });
  parts.push(Buffer.from([0xff, 0xff]));
  await pipeline(Readable.from([Buffer.concat(parts)]), db.query(copyFrom('COPY items (id, name) FROM STDIN (FORMAT binary)')));
  rows = (await db.query('SELECT name FROM items WHERE id = ANY($1::ulid[]) ORDER BY id', [hours])).rows;
  check(rows.map((r) => r.name).join() === hours.map((_, h) => `hour ${h}`).join(),
    `COPY text (6) and binary (6, ulidx's bytes): ${rows.length} rows in hour order`);

  // 3. a time range on the index
  await db.query('SET enable_seqscan = off');
  const range = 'SELECT id FROM items WHERE id <@ tstzrange($1, $2) ORDER BY id';
  const bounds = [new Date(base + 2 * 3600e3), new Date(base + 5 * 3600e3)];
  rows = (await db.query(range, bounds)).rows;
  check(rows.map((r) => r.id).join() === hours.slice(2, 5).join(), `id <@ tstzrange(02:00, 05:00): ${rows.map((r) => r.id).join(', ')}`);
  const plan = (await db.query(`EXPLAIN ${range}`, bounds)).rows.map((r) => r['QUERY PLAN']).join(' / ');
  check(plan.includes('items_pkey'), `the plan uses the index: ${plan}`);

  // 4. ORDER BY id, keyset pagination
  const all = (await db.query('SELECT id FROM items ORDER BY id')).rows.map((r) => r.id);
  const paged = [];
  let last = '00000000000000000000000000';
  let pages = 0;
  for (;;) {
    const page = (await db.query('SELECT id FROM items WHERE id > $1 ORDER BY id LIMIT 4', [last])).rows;
    if (page.length === 0) break;
    pages += 1;
    paged.push(...page.map((r) => r.id));
    last = page[page.length - 1].id;
  }
  check(all.length === 15 && paged.join() === all.join() && [...all].sort().join() === all.join(),
    `keyset pages of 4: ${pages} pages, ${paged.length} ids, as ORDER BY id (and as JavaScript sorts the strings): ${all[0]} .. ${all[14]}`);

  // 6. ulid_flake as BigInt
  rows = (await db.query("SELECT flake FROM items WHERE name = 'hour 3'")).rows;
  check(rows[0].flake === 14246757444195117n, `ulid_flake read as BigInt: ${rows[0].flake}n`);
  rows = (await db.query("UPDATE items SET flake = $1 WHERE name = 'hour 3' RETURNING flake, flake::text AS text", [flakeToText(1n << 62n)])).rows;
  check(rows[0].flake === 1n << 62n && rows[0].text === '4000000000000', `ulid_flake written from BigInt 2n**62n: ${rows[0].text}`);
  rows = (await db.query('SELECT name FROM items WHERE flake = $1::bigint', [(1n << 62n).toString()])).rows;
  check(rows.length === 1 && rows[0].name === 'hour 3', `or bound as a bigint ($1::bigint): ${rows[0] && rows[0].name}`);

  // 8. NULLs and bad values
  rows = (await db.query("INSERT INTO items (name, flake) VALUES ('no flake', $1) RETURNING flake", [null])).rows;
  check(rows[0].flake === null, `NULL ulid_flake in and out: ${rows[0].flake}`);
  rows = (await db.query('SELECT $1::ulid AS id', [null])).rows;
  check(rows[0].id === null, `NULL ulid in and out: ${rows[0].id}`);
  let state = await sqlstate(db.query('SELECT * FROM items WHERE id = $1', ['01ARZ3NDEKTSV4RRFFQ69G5FAU']));
  check(state === '22P02', `a bad ulid text: SQLSTATE ${state}`);
  state = await sqlstate(db.query('SELECT $1::ulid_flake', ['8ZZZZZZZZZZZZ']));
  check(state === '22003', `an overflowing ulid_flake: SQLSTATE ${state}`);
  await db.query('DROP TABLE items');
  await db.end();
  done();
}

main().catch(fail);
