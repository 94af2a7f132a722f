// pgx (v4) with oklog/ulid against the ulid extension, the way an
// application uses them: DDL, RETURNING, find by id (text, uuid and
// ulid.ULID parameters), a time-range scan on the index, keyset paging,
// COPY (binary), ulid_flake as int64, NULLs and SQLSTATEs.  Prints TAP.
// Connects with the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE).
// Built offline against Debian's golang-github-jackc-pgx-v4-dev and
// golang-github-oklog-ulid-dev (GO111MODULE=off GOPATH=/usr/share/gocode).
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgconn"
	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
	"github.com/oklog/ulid"
)

var n int

func check(ok bool, format string, args ...interface{}) {
	n++
	status := "ok"
	if !ok {
		status = "not ok"
	}
	fmt.Printf("%s %d - %s\n", status, n, fmt.Sprintf(format, args...))
}

func must(err error) {
	if err != nil {
		n++
		fmt.Printf("not ok %d - %v\n", n, err)
		fmt.Printf("1..%d\n", n)
		os.Exit(1)
	}
}

// recipe: RegisterUlidTypes
// ULID is a ulid as pgx sees it: uuid's 16 bytes (pgtype.UUID's binary and
// text codecs), except that as a database/sql value it gives the 16 bytes,
// which is what ulid.ULID's Scan takes (pgtype.UUID gives the uuid text).
type ULID struct{ pgtype.UUID }

func (u ULID) Value() (driver.Value, error) {
	if u.Status != pgtype.Present {
		return nil, nil
	}
	return u.Bytes[:], nil
}

// RegisterUlidTypes tells pgx that ulid is 16 bytes and ulid_flake int8's 8
// bytes: values then travel in binary, a ulid column scans into ulid.ULID
// (or [16]byte, pgtype.UUID), a ulid.ULID is sent as a parameter, and a
// ulid_flake column scans into int64.  Call it once per connection (with
// pgxpool: in Config.AfterConnect).
func RegisterUlidTypes(ctx context.Context, conn *pgx.Conn) error {
	var ulidOID, flakeOID uint32
	err := conn.QueryRow(ctx,
		"SELECT 'ulid'::regtype::oid, 'ulid_flake'::regtype::oid").Scan(&ulidOID, &flakeOID)
	if err != nil {
		return err
	}
	info := conn.ConnInfo()
	info.RegisterDataType(pgtype.DataType{Value: &ULID{}, Name: "ulid", OID: ulidOID})
	info.RegisterDataType(pgtype.DataType{Value: &pgtype.Int8{}, Name: "ulid_flake", OID: flakeOID})
	return nil
}

// recipe: end

func main() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "")
	must(err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP TABLE IF EXISTS items; DROP EXTENSION IF EXISTS ulid CASCADE; CREATE EXTENSION ulid")
	must(err)
	must(RegisterUlidTypes(ctx, conn))

	// 1. DDL, rows inserted, the generated ids back through RETURNING
	_, err = conn.Exec(ctx, `CREATE TABLE items (
		id ulid PRIMARY KEY DEFAULT ulid_generate(),
		name text NOT NULL,
		flake ulid_flake)`)
	must(err)
	var generated []ulid.ULID
	for i := 0; i < 3; i++ {
		var id ulid.ULID
		must(conn.QueryRow(ctx, "INSERT INTO items (name) VALUES ($1) RETURNING id",
			fmt.Sprintf("new %d", i)).Scan(&id))
		generated = append(generated, id)
	}
	var serverText string
	var serverMs int64
	var serverBytes []byte
	must(conn.QueryRow(ctx, "SELECT id::text, ulid_unix_ms(id), id::bytea FROM items WHERE name = 'new 0'").
		Scan(&serverText, &serverMs, &serverBytes))
	first := generated[0]
	check(first.String() == serverText, "RETURNING id scans into ulid.ULID: %s, the server has %s", first, serverText)
	check(bytes.Equal(first[:], serverBytes), "ulid.ULID bytes are the server's: %x", first[:])
	check(int64(first.Time()) == serverMs, "ulid.ULID.Time() is the server's ulid_unix_ms: %d = %d", first.Time(), serverMs)
	check(generated[0].Compare(generated[1]) < 0 && generated[1].Compare(generated[2]) < 0,
		"generated ids increase: %s < %s < %s", generated[0], generated[1], generated[2])

	// 2. find by id: the id as text, as a ulid.ULID, as a uuid (pgtype.UUID)
	var name string
	must(conn.QueryRow(ctx, "SELECT name FROM items WHERE id = $1", generated[1].String()).Scan(&name))
	check(name == "new 1", "find by id as text %s: %q", generated[1], name)
	must(conn.QueryRow(ctx, "SELECT name FROM items WHERE id = $1", generated[2]).Scan(&name))
	check(name == "new 2", "find by id as ulid.ULID (binary): %q", name)
	asUUID := pgtype.UUID{Bytes: generated[0], Status: pgtype.Present}
	must(conn.QueryRow(ctx, "SELECT name FROM items WHERE id = $1::uuid", asUUID).Scan(&name))
	check(name == "new 0", "find by id as a uuid parameter (ulid = uuid): %q", name)
	var uuidText string
	must(conn.QueryRow(ctx, "SELECT id::uuid::text FROM items WHERE id = $1", generated[0]).Scan(&uuidText))
	check(strings.ReplaceAll(uuidText, "-", "") == fmt.Sprintf("%x", generated[0][:]),
		"the uuid is the same 16 bytes: %s", uuidText)

	// 5. bulk load with COPY (pgx's CopyFrom is binary): ids made in Go,
	// one an hour on 2025-03-01, the flake as int64
	base := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	var rows [][]interface{}
	var loaded []ulid.ULID
	for h := 0; h < 10; h++ {
		id := ulid.MustNew(ulid.Timestamp(base.Add(time.Duration(h)*time.Hour)), rand.Reader)
		loaded = append(loaded, id)
		rows = append(rows, []interface{}{id, fmt.Sprintf("hour %d", h), int64(14246757444195114 + h)})
	}
	copied, err := conn.CopyFrom(ctx, pgx.Identifier{"items"}, []string{"id", "name", "flake"}, pgx.CopyFromRows(rows))
	must(err)
	var count int
	must(conn.QueryRow(ctx, "SELECT count(*) FROM items WHERE id = ANY($1::text[]::ulid[])",
		[]string{loaded[0].String(), loaded[9].String()}).Scan(&count))
	check(copied == 10 && count == 2, "COPY (binary) of 10 rows: %d copied, first and last found by text", copied)
	var hour string
	must(conn.QueryRow(ctx, "SELECT to_char(id::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM items WHERE id = $1", loaded[3]).Scan(&hour))
	check(hour == "2025-03-01 03:00", "a copied id carries its time: %s", hour)
	// and in text format, through COPY FROM STDIN
	_, err = conn.PgConn().CopyFrom(ctx, strings.NewReader("01ARZ3NDEKTSV4RRFFQ69G5FAV\tcopy text\t00CMXB6TAK4SA\n"),
		"COPY items (id, name, flake) FROM STDIN")
	must(err)
	var flakeOfText int64
	must(conn.QueryRow(ctx, "SELECT flake FROM items WHERE id = $1", ulid.MustParse("01ARZ3NDEKTSV4RRFFQ69G5FAV")).Scan(&flakeOfText))
	check(flakeOfText == 14246757444195114, "COPY (text) row, its ulid_flake read as int64: %d", flakeOfText)

	// 3. a time range on the index
	_, err = conn.Exec(ctx, "SET enable_seqscan = off")
	must(err)
	from, to := base.Add(2*time.Hour), base.Add(5*time.Hour)
	rs, err := conn.Query(ctx, "SELECT id FROM items WHERE id <@ tstzrange($1, $2) ORDER BY id", from, to)
	must(err)
	var inRange []ulid.ULID
	for rs.Next() {
		var id ulid.ULID
		must(rs.Scan(&id))
		inRange = append(inRange, id)
	}
	must(rs.Err())
	check(len(inRange) == 3 && inRange[0] == loaded[2] && inRange[2] == loaded[4],
		"id <@ tstzrange(02:00, 05:00): %d rows, %v", len(inRange), inRange)
	var plan []string
	rs, err = conn.Query(ctx, "EXPLAIN SELECT id FROM items WHERE id <@ tstzrange($1, $2)", from, to)
	must(err)
	for rs.Next() {
		var line string
		must(rs.Scan(&line))
		plan = append(plan, line)
	}
	check(strings.Contains(strings.Join(plan, "\n"), "items_pkey"), "the plan uses the index: %s", strings.Join(plan, " / "))

	// 4. ORDER BY id, keyset pagination
	var all []ulid.ULID
	rs, err = conn.Query(ctx, "SELECT id FROM items ORDER BY id")
	must(err)
	for rs.Next() {
		var id ulid.ULID
		must(rs.Scan(&id))
		all = append(all, id)
	}
	var paged []ulid.ULID
	last := ulid.ULID{} // the lowest ULID: 00000000000000000000000000
	pages := 0
	for {
		rs, err = conn.Query(ctx, "SELECT id FROM items WHERE id > $1 ORDER BY id LIMIT 4", last)
		must(err)
		got := 0
		for rs.Next() {
			must(rs.Scan(&last))
			paged = append(paged, last)
			got++
		}
		must(rs.Err())
		if got == 0 {
			break
		}
		pages++
	}
	check(len(all) == 14 && fmt.Sprint(paged) == fmt.Sprint(all), "keyset pages of 4: %d pages, %d ids, same as ORDER BY id", pages, len(paged))
	sorted := true
	for i := 1; i < len(all); i++ {
		sorted = sorted && all[i-1].Compare(all[i]) < 0
	}
	check(sorted, "ORDER BY id is ulid.ULID's order (and the bytes'): %s .. %s", all[0], all[len(all)-1])

	// 6. ulid_flake as int64, both ways
	var flake int64
	must(conn.QueryRow(ctx, "UPDATE items SET flake = $1 WHERE name = 'new 0' RETURNING flake", int64(1<<62)).Scan(&flake))
	var flakeText string
	must(conn.QueryRow(ctx, "SELECT flake::text FROM items WHERE name = 'new 0'").Scan(&flakeText))
	check(flake == 1<<62 && flakeText == "4000000000000", "ulid_flake written and read as int64: %d, text %s", flake, flakeText)
	must(conn.QueryRow(ctx, "SELECT ulid_flake_generate()").Scan(&flake))
	check(flake > 0, "ulid_flake_generate() scans into int64: %d", flake)
	must(conn.QueryRow(ctx, "SELECT name FROM items WHERE flake = $1", int64(14246757444195114+7)).Scan(&name))
	check(name == "hour 7", "find by ulid_flake as an int64 parameter: %q", name)

	// 7. oklog/ulid: text, bytes and time agree with the server's
	var ms int64
	var text string
	var raw []byte
	var id ulid.ULID
	must(conn.QueryRow(ctx, "SELECT id, id::text, id::bytea, ulid_unix_ms(id) FROM items WHERE name = 'hour 9'").Scan(&id, &text, &raw, &ms))
	check(id == loaded[9] && id.String() == text && bytes.Equal(id[:], raw) && int64(id.Time()) == ms,
		"ulid.ULID read back: %s, time %d, bytes %x", id, id.Time(), id[:])

	// 8. NULLs and bad values
	var nullID pgtype.UUID
	var nullFlake pgtype.Int8
	must(conn.QueryRow(ctx, "SELECT NULL::ulid, NULL::ulid_flake").Scan(&nullID, &nullFlake))
	check(nullID.Status == pgtype.Null && nullFlake.Status == pgtype.Null, "NULL ulid and ulid_flake scan as Null")
	var nullable *string
	must(conn.QueryRow(ctx, "INSERT INTO items (name, flake) VALUES ('no flake', $1) RETURNING flake::text", nil).Scan(&nullable))
	check(nullable == nil, "a nil parameter is stored as NULL")
	_, err = conn.Exec(ctx, "SELECT * FROM items WHERE id = $1", "01ARZ3NDEKTSV4RRFFQ69G5FAU")
	var pgErr *pgconn.PgError
	check(errors.As(err, &pgErr) && pgErr.Code == "22P02", "a bad ulid text: SQLSTATE %v", sqlstate(err))
	_, err = conn.Exec(ctx, "SELECT $1::ulid_flake", "8ZZZZZZZZZZZZ")
	check(errors.As(err, &pgErr) && pgErr.Code == "22003", "an overflowing ulid_flake text: SQLSTATE %v", sqlstate(err))
	_, err = conn.Exec(ctx, "INSERT INTO items (name, flake) VALUES ('negative', $1)", int64(-1))
	check(errors.As(err, &pgErr) && pgErr.Code == "22003", "a negative int64 for ulid_flake: SQLSTATE %v", sqlstate(err))

	fmt.Printf("1..%d\n", n)
}

func sqlstate(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return fmt.Sprint(err)
}
