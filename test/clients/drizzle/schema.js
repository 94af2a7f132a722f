// recipe: drizzle schema
'use strict';
const { customType, pgTable, text } = require('drizzle-orm/pg-core');
const { sql } = require('drizzle-orm');
const { flakeToBigInt, flakeToText } = require('../ulid_types');

// ulid: its 26-character string both ways
const ulid = customType({ dataType: () => 'ulid' });
// ulid_flake: a BigInt in JavaScript, its 13 characters on the wire
const ulidFlake = customType({
  dataType: () => 'ulid_flake',
  toDriver: (value) => flakeToText(value),
  fromDriver: (value) => flakeToBigInt(value),
});

const items = pgTable('items', {
  id: ulid('id').primaryKey().default(sql`ulid_generate()`),
  name: text('name').notNull(),
  flake: ulidFlake('flake'),
});

// id <@ tstzrange(from, to): a time range on the index
const createdBetween = (column, from, to) => sql`${column} <@ tstzrange(${from}, ${to})`;

module.exports = { ulid, ulidFlake, items, createdBetween };
// recipe: end
