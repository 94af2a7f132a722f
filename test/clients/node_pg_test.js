// node-postgres against the ulid extension: ulid and ulid_flake values in
// text and binary format, as parameters, results and COPY (pg-copy-streams),
// checked byte for byte against what the server stored.  Prints TAP.
// Connects with the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE).
'use strict';
const { Client, types } = require('pg');
const { from: copyFrom, to: copyTo } = require('pg-copy-streams');
const { pipeline } = require('stream/promises');
const { Readable, Writable } = require('stream');

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// independent decoders of the text forms
function ulidBytes(text) {
  let v = 0n;
  for (const ch of text.toUpperCase()) v = v * 32n + BigInt(ALPHABET.indexOf(ch));
  const out = Buffer.alloc(16);
  for (let i = 15; i >= 0; i--) { out[i] = Number(v & 0xffn); v >>= 8n; }
  return out;
}
function flakeInt(text) {
  let v = 0n;
  for (const ch of text.toUpperCase()) v = v * 32n + BigInt(ALPHABET.indexOf(ch));
  return v;
}
function int8Bytes(v) {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(v);
  return b;
}

let n = 0;
function check(ok, description) {
  n += 1;
  console.log(`${ok ? 'ok' : 'not ok'} ${n} - ${description}`);
}

function binaryCopy(values) {
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  for (const v of values) {
    const head = Buffer.alloc(6);
    head.writeInt16BE(1, 0);
    head.writeInt32BE(v.length, 2);
    parts.push(head, v);
  }
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1, 0);
  parts.push(trailer);
  return Buffer.concat(parts);
}
function binaryCopyRows(data) {
  let pos = 11;
  const ext = data.readInt32BE(pos + 4);
  pos += 8 + ext;
  const rows = [];
  for (;;) {
    const fields = data.readInt16BE(pos);
    pos += 2;
    if (fields === -1) return rows;
    const len = data.readInt32BE(pos);
    pos += 4;
    rows.push(data.subarray(pos, pos + len));
    pos += len;
  }
}
async function copyOut(client, sql) {
  const chunks = [];
  await pipeline(client.query(copyTo(sql)), new Writable({
    write(chunk, _enc, cb) { chunks.push(chunk); cb(); },
  }));
  return Buffer.concat(chunks);
}
async function copyIn(client, sql, data) {
  await pipeline(Readable.from([data]), client.query(copyFrom(sql)));
}

async function main() {
  const client = new Client();
  await client.connect();
  await client.query('DROP EXTENSION IF EXISTS ulid CASCADE');
  await client.query('CREATE EXTENSION ulid');
  const samples = ['01ARZ3NDEKTSV4RRFFQ69G5FAV', '00000000000000000000000000',
    '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '01JQ4T23H220KM7X0B3V1109DQ'];
  const flakes = ['00CMXB6TAK4SA', '0000000000000', '7ZZZZZZZZZZZZ', '128GGYHYYK08N'];
  await client.query('CREATE TABLE c (n int, id ulid, f ulid_flake)');

  // text parameters in, text results out
  for (let i = 0; i < samples.length; i++) {
    await client.query('INSERT INTO c VALUES ($1, $2, $3)', [i, samples[i].toLowerCase(), flakes[i]]);
  }
  let rows = (await client.query('SELECT id, f FROM c ORDER BY n')).rows;
  check(JSON.stringify(rows.map((r) => [r.id, r.f])) === JSON.stringify(samples.map((u, i) => [u, flakes[i]])),
    'text parameters (lower case) read back canonical');
  rows = (await client.query('SELECT id::bytea AS b, f::bigint::text AS i FROM c ORDER BY n')).rows;
  check(rows.every((r, i) => r.b.equals(ulidBytes(samples[i]))),
    'the server stored the 16 bytes an independent decoder gives');
  check(rows.every((r, i) => BigInt(r.i) === flakeInt(flakes[i])),
    'the server stored the ulid_flake integers an independent decoder gives');

  // binary results: node-postgres's protocol parser has no binary mode (it
  // decodes every DataRow field as UTF-8), so binary result rows of any type
  // holding arbitrary bytes, uuid included, arrive altered.  What can be
  // checked: a ulid arrives exactly as the same bytes sent as a uuid do, and
  // a ulid_flake exactly as the same bigint does.  (Binary parameters and
  // binary COPY below are byte for byte.)
  console.log('# node-postgres decodes binary result fields as UTF-8: compared with uuid and bigint');
  rows = (await client.query({
    text: 'SELECT id, id::uuid AS u, f, f::bigint AS b FROM c WHERE n >= $1 ORDER BY n',
    values: [0], binary: true,
    types: { getTypeParser: (oid, format) => (format === 'binary' ? (v) => v : types.getTypeParser(oid, format)) },
  })).rows;
  check(rows.length === 4 && rows.every((r) => Buffer.isBuffer(r.id) && r.id.equals(r.u)),
    'binary results: a ulid arrives exactly as the same uuid does');
  check(rows.every((r) => Buffer.isBuffer(r.f) && r.f.equals(r.b)),
    'binary results: a ulid_flake arrives exactly as the same bigint does');

  // binary parameters: node-postgres sends a Buffer in binary format
  await client.query('TRUNCATE c');
  for (let i = 0; i < samples.length; i++) {
    await client.query('INSERT INTO c (n, id, f) VALUES ($1, $2::ulid, $3::ulid_flake)',
      [i, ulidBytes(samples[i]), int8Bytes(flakeInt(flakes[i]))]);
  }
  rows = (await client.query('SELECT id, f FROM c ORDER BY n')).rows;
  check(rows.every((r, i) => r.id === samples[i] && r.f === flakes[i]), 'binary parameters stored as sent');
  // a binary value of the wrong length, as for uuid: too short 08P01, too long 22P03
  for (const [length, expected] of [[15, '08P01'], [17, '22P03']]) {
    try {
      await client.query('SELECT $1::ulid', [Buffer.alloc(length, 1)]);
      check(false, `a ${length}-byte binary ulid parameter is rejected`);
    } catch (e) {
      check(e.code === expected, `a ${length}-byte binary ulid parameter: ${e.code}, expected ${expected}`);
    }
  }
  try {
    await client.query('SELECT $1::ulid_flake', [int8Bytes(-1n)]);
    check(false, 'a negative binary ulid_flake parameter is rejected');
  } catch (e) {
    check(e.code === '22003', `a negative binary ulid_flake parameter is rejected (${e.code})`);
  }

  // COPY, text format
  await client.query('TRUNCATE c');
  await copyIn(client, 'COPY c (n, id, f) FROM STDIN',
    Buffer.from(samples.map((u, i) => `${i}\t${u.toLowerCase()}\t${flakes[i]}\n`).join('')));
  const textOut = await copyOut(client, 'COPY (SELECT id, f FROM c ORDER BY n) TO STDOUT');
  check(textOut.toString() === samples.map((u, i) => `${u}\t${flakes[i]}\n`).join(''), 'COPY text in and out');

  // COPY, binary format
  await client.query('TRUNCATE c');
  await copyIn(client, 'COPY c (id) FROM STDIN (FORMAT binary)', binaryCopy(samples.map(ulidBytes)));
  const binOut = await copyOut(client, 'COPY (SELECT id FROM c ORDER BY id) TO STDOUT (FORMAT binary)');
  const expected = samples.map(ulidBytes).sort(Buffer.compare);
  const got = binaryCopyRows(binOut);
  check(got.length === 4 && got.every((b, i) => b.equals(expected[i])), 'COPY binary in and out: 16 raw bytes a value');
  const flakeOut = await copyOut(client,
    "COPY (SELECT '00CMXB6TAK4SA'::ulid_flake) TO STDOUT (FORMAT binary)");
  check(binaryCopyRows(flakeOut)[0].equals(int8Bytes(14246757444195114n)),
    'COPY binary out of ulid_flake: 8 bytes big-endian');

  // generated keys come back in creation order
  await client.query('CREATE TABLE g (id ulid PRIMARY KEY DEFAULT ulid_generate(), n int)');
  const ids = [];
  for (let i = 0; i < 100; i++) {
    ids.push((await client.query('INSERT INTO g (n) VALUES ($1) RETURNING id', [i])).rows[0].id);
  }
  check(ids.every((id, i) => i === 0 || id > ids[i - 1]) && new Set(ids).size === 100,
    '100 generated ids, increasing, distinct');
  await client.query('DROP TABLE c, g');
  await client.end();
  console.log(`1..${n}`);
}

main().catch((e) => {
  console.log(`not ok ${n + 1} - ${e.stack.split('\n').join('\n# ')}`);
  process.exit(1);
});
