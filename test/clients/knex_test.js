// Knex against the ulid extension, the way an application uses it: a
// migration, insert ... returning, find by id, a time-range query on the
// index, keyset paging, a multi-row insert, ulid_flake as BigInt, NULLs and
// SQLSTATEs.  Prints TAP.  Connects with the libpq environment.
'use strict';
const knexFactory = require('knex');
const { registerUlidTypes, flakeToText } = require('./ulid_types');
const { check, done, fail, sqlstate } = require('./tap');

// recipe: knex migration
const createItems = {
  async up(knex) {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS ulid');
    await knex.schema.createTable('items', (t) => {
      t.specificType('id', 'ulid').primary().defaultTo(knex.raw('ulid_generate()'));
      t.text('name').notNullable();
      t.specificType('flake', 'ulid_flake');
    });
  },
  async down(knex) {
    await knex.schema.dropTable('items');
  },
};
// recipe: end

async function main() {
  const knex = knexFactory({
    client: 'pg',
    connection: { host: process.env.PGHOST, port: process.env.PGPORT, user: process.env.PGUSER, database: process.env.PGDATABASE },
  });
  await knex.raw('DROP TABLE IF EXISTS items, knex_migrations, knex_migrations_lock; DROP EXTENSION IF EXISTS ulid CASCADE');

  // 1. the migration, rows inserted, the generated ids back
  const migrationSource = {
    getMigrations: async () => ['20250301_create_items'],
    getMigrationName: (m) => m,
    getMigration: async () => createItems,
  };
  const [, applied] = await knex.migrate.latest({ migrationSource });
  await registerUlidTypes({ query: async (q) => knex.raw(q) });
  const def = await knex('information_schema.columns').where({ table_name: 'items', column_name: 'id' }).first('column_default', 'udt_name');
  check(applied.join() === '20250301_create_items' && def.column_default === 'ulid_generate()' && def.udt_name === 'ulid',
    `knex.migrate.latest: ${applied.join()}, id ${def.udt_name} DEFAULT ${def.column_default}`);
  const ids = [];
  for (let i = 0; i < 3; i++) {
    const [row] = await knex('items').insert({ name: `new ${i}` }).returning('id');
    ids.push(row.id);
  }
  const server = (await knex('items').orderBy('id').select(knex.raw('id::text AS t'))).map((r) => r.t);
  check(ids.join() === server.join() && ids.every((id) => /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(id)),
    `insert().returning('id'): ${ids.join(', ')}`);

  // 2. find by id (text; JavaScript has no uuid object)
  const found = await knex('items').where({ id: ids[1].toLowerCase() }).first();
  check(found && found.name === 'new 1' && found.id === ids[1], `where({ id: '${ids[1].toLowerCase()}' }).first(): ${found && found.name}, id ${found && found.id}`);

  // 5. bulk: one multi-row insert, ids one an hour on 2025-03-01
  const base = Date.UTC(2025, 2, 1);
  const hours = [];
  for (let h = 0; h < 12; h++) {
    hours.push((await knex.first(knex.raw('ulid_generate(?)::text AS id', [new Date(base + h * 3600e3)]))).id);
  }
  const inserted = await knex('items').insert(hours.map((id, h) => ({ id, name: `hour ${h}`, flake: flakeToText(14246757444195114n + BigInt(h)) })))
    .returning(['id', 'flake']);
  check(inserted.length === 12 && inserted[3].id === hours[3] && inserted[3].flake === 14246757444195117n,
    `a multi-row insert of 12, returning id and flake: ${inserted[3].id}, ${inserted[3].flake}n`);

  // 3. a time range on the index
  // (in one transaction: SET LOCAL stays on its pooled connection)
  await knex.transaction(async (trx) => {
    await trx.raw('SET LOCAL enable_seqscan = off');
    const range = trx('items').select('id').whereRaw('id <@ tstzrange(?, ?)', [new Date(base + 2 * 3600e3), new Date(base + 5 * 3600e3)]).orderBy('id');
    const got = (await range.clone()).map((r) => r.id);
    check(got.join() === hours.slice(2, 5).join(), `whereRaw('id <@ tstzrange(?, ?)', 02:00, 05:00): ${got.join(', ')}`);
    const native = range.toSQL().toNative();
    const plan = (await trx.raw(`EXPLAIN ${range.toQuery()}`)).rows.map((r) => r['QUERY PLAN']).join(' / ');
    check(plan.includes('items_pkey'), `the plan uses the index: ${native.sql} / ${plan}`);
  });

  // 4. ORDER BY id, keyset pagination
  const all = await knex('items').orderBy('id').pluck('id');
  const paged = [];
  let last = '00000000000000000000000000';
  let pages = 0;
  for (;;) {
    const page = await knex('items').where('id', '>', last).orderBy('id').limit(4);
    if (page.length === 0) break;
    pages += 1;
    paged.push(...page.map((r) => r.id));
    last = page[page.length - 1].id;
  }
  check(all.length === 15 && paged.join() === all.join(),
    `keyset pages of 4: ${pages} pages, ${paged.length} ids, as orderBy('id'): ${all[0]} .. ${all[14]}`);

  // 6. ulid_flake as BigInt
  const row = await knex('items').where({ name: 'hour 3' }).first('flake');
  check(row.flake === 14246757444195117n, `ulid_flake read as BigInt: ${row.flake}n`);
  await knex('items').where({ name: 'hour 3' }).update({ flake: flakeToText(1n << 62n) });
  const back = await knex('items').where({ flake: flakeToText(1n << 62n) }).first('name', knex.raw('flake::text AS text'));
  check(back && back.name === 'hour 3' && back.text === '4000000000000', `ulid_flake written from BigInt 2n**62n: ${back && back.text}, found by it`);
  const byBigint = await knex('items').whereRaw('flake = ?::bigint', [(1n << 62n).toString()]).pluck('name');
  check(byBigint.join() === 'hour 3', `or compared as a bigint: ${byBigint.join()}`);

  // 8. NULLs and bad values
  const [nullRow] = await knex('items').insert({ name: 'no flake', flake: null }).returning('flake');
  check(nullRow.flake === null && (await knex('items').whereNull('flake').count('* AS n'))[0].n === '4',
    `NULL ulid_flake in and out: ${nullRow.flake}, 4 rows without one`);
  let state = await sqlstate(knex('items').where({ id: '01ARZ3NDEKTSV4RRFFQ69G5FAU' }).first());
  check(state === '22P02', `a bad ulid text: SQLSTATE ${state}`);
  state = await sqlstate(knex('items').insert({ name: 'x', flake: '8ZZZZZZZZZZZZ' }));
  check(state === '22003', `an overflowing ulid_flake: SQLSTATE ${state}`);

  await knex.migrate.rollback({ migrationSource });
  check(!(await knex.schema.hasTable('items')), 'knex.migrate.rollback drops the table');
  await knex.destroy();
  done();
}

main().catch(fail);
