#!/usr/bin/ruby
# ActiveRecord 6.1 (ruby-pg) against the ulid extension, the way an
# application uses it: a migration, a model, the generated id back
# (RETURNING), find by id, a time-range scope on the index, keyset paging,
# insert_all and COPY (text and binary), ulid_flake as Integer, NULLs and
# SQLSTATEs.  Prints TAP.  Connects with the libpq environment.
require "active_record"

# recipe: activerecord types
require "active_record/connection_adapters/postgresql_adapter"
# ulid: a String (26 characters).  ulid_flake: an Integer in Ruby, its 13
# characters on the wire.
class UlidFlakeType < ActiveModel::Type::Value
  CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
  BASE32 = "0123456789abcdefghijklmnopqrstuv"

  def type
    :ulid_flake
  end

  def cast_value(value)
    value.is_a?(String) && value.length == 13 ? value.upcase.tr(CROCKFORD, BASE32).to_i(32) : Integer(value)
  end

  def serialize(value)
    return nil if value.nil?
    value = cast(value)
    value.negative? ? value.to_s : value.to_s(32).tr(BASE32, CROCKFORD).rjust(13, "0")
  end
end

module UlidTypeMap
  def initialize_type_map(m = type_map)
    super
    m.register_type "ulid", ActiveRecord::Type::String.new
    m.register_type "ulid_flake", UlidFlakeType.new
  end
end
ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(UlidTypeMap)
ActiveRecord::Type.register(:ulid_flake, UlidFlakeType, adapter: :postgresql)
# recipe: end

# recipe: activerecord migration
class CreateItems < ActiveRecord::Migration[6.1]
  def change
    enable_extension "ulid"
    create_table :items, id: :ulid, default: -> { "ulid_generate()" } do |t|
      t.text :name, null: false
      t.column :flake, :ulid_flake
    end
  end
end

class Item < ActiveRecord::Base
  scope :created_between, ->(from, to) { where("id <@ tstzrange(?, ?)", from, to) }
end
# recipe: end

$n = 0
def check(ok, description)
  $n += 1
  puts "#{ok ? 'ok' : 'not ok'} #{$n} - #{description}"
end

def sqlstate
  yield
  "no error"
rescue ActiveRecord::StatementInvalid => e
  e.cause.result.error_field(PG::PG_DIAG_SQLSTATE)
end

def sql(query)
  ActiveRecord::Base.connection.select_values(query)
end

def ulid_bytes(text)
  text.upcase.chars.inject(0) { |v, c| v * 32 + UlidFlakeType::CROCKFORD.index(c) }.to_s(16).rjust(32, "0").scan(/../).map(&:hex).pack("C*")
end

ActiveRecord::Base.establish_connection(adapter: "postgresql", host: ENV["PGHOST"], port: ENV["PGPORT"],
                                        username: ENV["PGUSER"], database: ENV["PGDATABASE"])
ActiveRecord::Migration.verbose = false
conn = ActiveRecord::Base.connection
conn.execute("DROP TABLE IF EXISTS items; DROP EXTENSION IF EXISTS ulid CASCADE")
puts "# ActiveRecord #{ActiveRecord.version}, pg #{PG::VERSION}"

begin
  # 1. the migration, records created, the generated id back
  CreateItems.migrate(:up)
  # the app starts after its migrations: a new connection knows the types' OIDs
  ActiveRecord::Base.connection_pool.disconnect!
  conn = ActiveRecord::Base.connection
  check(sql("SELECT column_default FROM information_schema.columns WHERE table_name = 'items' AND column_name = 'id'") == ["ulid_generate()"] &&
        Item.columns_hash["id"].sql_type == "ulid" && Item.columns_hash["flake"].sql_type == "ulid_flake",
        "the migration made id ulid DEFAULT ulid_generate(), flake ulid_flake")
  items = (0..2).map { |i| Item.create!(name: "new #{i}") }
  ids = items.map(&:id)
  check(ids == sql("SELECT id::text FROM items ORDER BY id") && ids.all? { |i| i =~ /\A[0-7][0-9A-HJKMNP-TV-Z]{25}\z/ },
        "Item.create! gets the generated id (RETURNING): #{ids.join(', ')}")

  # 2. find by id (a bound parameter, text; Ruby has no uuid object)
  got = Item.find(ids[1].downcase)
  check(got.name == "new 1" && got.id == ids[1], "Item.find(#{ids[1].downcase.inspect}): #{got.name.inspect}, id #{got.id}")
  check(Item.where(id: [ids[0], ids[2]]).order(:id).pluck(:name) == ["new 0", "new 2"], "Item.where(id: [two ids]): new 0, new 2")

  # 5. bulk: insert_all (one multi-row INSERT ... RETURNING), COPY text and binary
  base = Time.utc(2025, 3, 1)
  hours = (0..11).map { |h| conn.select_value("SELECT ulid_generate(#{conn.quote(base + h * 3600)}::timestamptz)::text") }
  result = Item.insert_all((0..3).map { |h| { id: hours[h], name: "hour #{h}", flake: 14246757444195114 + h } }, returning: %w[id flake])
  check(result.rows.map(&:first) == hours[0..3] && result.cast_values(Item.attribute_types)[3] == [hours[3], 14246757444195117],
        "insert_all of 4, RETURNING id, flake: #{result.rows.last.inspect}")
  generated = Item.insert_all((0..2).map { |i| { name: "bulk #{i}" } }, returning: %w[id]).rows.flatten
  check(generated.size == 3 && generated == sql("SELECT id::text FROM items WHERE name LIKE 'bulk %' ORDER BY id"),
        "insert_all without ids, the generated ones returned: #{generated.join(', ')}")
  raw = conn.raw_connection
  raw.copy_data("COPY items (id, name) FROM STDIN") do
    (4..7).each { |h| raw.put_copy_data("#{hours[h]}\thour #{h}\n") }
  end
  binary = "PGCOPY\n\xFF\r\n\0".b + [0, 0].pack("NN")
  (8..11).each { |h| binary << [2, 16].pack("nN") << ulid_bytes(hours[h]) << ["hour #{h}".bytesize].pack("N") << "hour #{h}" }
  binary << [-1].pack("s>")
  raw.copy_data("COPY items (id, name) FROM STDIN (FORMAT binary)") { raw.put_copy_data(binary) }
  names = Item.where(id: hours).order(:id).pluck(:name)
  check(names == (0..11).map { |h| "hour #{h}" }, "insert_all (4), COPY text (4), COPY binary (4): #{names.size} rows in hour order")

  # 3. a time range on the index: a scope
  conn.execute("SET enable_seqscan = off")
  got = Item.created_between(base + 2 * 3600, base + 5 * 3600).order(:id).pluck(:id)
  check(got == hours[2..4], "Item.created_between(02:00, 05:00): #{got.join(', ')}")
  plan = Item.created_between(base + 2 * 3600, base + 5 * 3600).explain
  check(plan.include?("items_pkey"), "relation.explain uses the index: #{plan.lines.map(&:strip).join(' / ')}")

  # 4. ORDER BY id, keyset pagination
  everything = Item.order(:id).pluck(:id)
  paged = []
  last = "00000000000000000000000000"
  pages = 0
  loop do
    page = Item.where("id > ?", last).order(:id).limit(5).to_a
    break if page.empty?
    pages += 1
    paged.concat(page.map(&:id))
    last = page.last.id
  end
  check(everything.size == 18 && paged == everything && everything == everything.sort,
        "keyset pages of 5: #{pages} pages, #{paged.size} ids, as order(:id): #{paged.first} .. #{paged.last}")

  # 6. ulid_flake as Integer
  item = Item.find_by!(name: "hour 3")
  check(item.flake == 14246757444195117, "ulid_flake read as Integer: #{item.flake}")
  item.update!(flake: 1 << 62)
  check(sql("SELECT flake::text FROM items WHERE name = 'hour 3'") == ["4000000000000"] && Item.find_by!(flake: 1 << 62).name == "hour 3",
        "ulid_flake saved as Integer 2**62: stored as 4000000000000, found by it")
  small = Item.create!(name: "small", flake: 5)
  check(sql("SELECT flake::text FROM items WHERE name = 'small'") == ["0000000000005"] && Item.find_by!(flake: 5).id == small.id,
        "a small Integer (5) is stored as 0000000000005 and found by it")

  # 8. NULLs and bad values
  item = Item.create!(name: "no flake")
  check(item.reload.flake.nil? && Item.where(flake: nil).count == 15,
        "NULL ulid_flake in and out: #{item.flake.inspect}, #{Item.where(flake: nil).count} rows without one")
  state = sqlstate { Item.find("01ARZ3NDEKTSV4RRFFQ69G5FAU") }
  check(state == "22P02", "a bad ulid text: SQLSTATE #{state}")
  state = sqlstate { Item.create!(name: "negative", flake: -1) }
  # the value goes as text, and "-1" is no ulid_flake's text
  check(state == "22P02", "a negative Integer for ulid_flake: SQLSTATE #{state}")

  CreateItems.migrate(:down)
  check(!conn.table_exists?(:items), "the migration rolls back")
rescue StandardError => e
  check(false, "#{e.class}: #{e.message.lines.first[0, 300]}")
  puts e.backtrace.first(5).map { |l| "# #{l}" }
  exit 1
end
puts "1..#{$n}"
