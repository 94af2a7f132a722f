// recipe: node-postgres types
// ulid and ulid_flake for node-postgres (and so for Knex and Drizzle, which
// run on it).  A ulid needs nothing: it is its 26-character string both
// ways, which is what the npm packages ulid and ulidx use.  A ulid_flake is
// a 64-bit integer: a BigInt in JavaScript, its 13 characters on the wire.
'use strict';
const { types } = require('pg');

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function flakeToBigInt(text) {
  let v = 0n;
  for (const ch of text.toUpperCase()) {
    const digit = CROCKFORD.indexOf(ch);
    if (digit < 0 || text.length !== 13) throw new TypeError(`not a ulid_flake: ${text}`);
    v = v * 32n + BigInt(digit);
  }
  return v;
}

function flakeToText(value) {
  let v = BigInt(value);
  if (v < 0n || v >= 1n << 63n) throw new RangeError(`out of range for ulid_flake: ${value}`);
  let out = '';
  for (let i = 0; i < 13; i++, v >>= 5n) out = CROCKFORD[Number(v & 31n)] + out;
  return out;
}

// Call once, with any client or pool, after CREATE EXTENSION ulid: result
// columns of type ulid_flake then arrive as BigInt (setTypeParser is global).
async function registerUlidTypes(client) {
  const { rows } = await client.query("SELECT 'ulid_flake'::regtype::oid AS flake");
  types.setTypeParser(Number(rows[0].flake), flakeToBigInt);
}

module.exports = { registerUlidTypes, flakeToBigInt, flakeToText };
// recipe: end
