// pgjdbc against the ulid extension, the way an application uses it: DDL,
// generated keys, find by id (text and java.util.UUID parameters), a
// time-range scan on the index, keyset paging, COPY (text and binary),
// ulid_flake as long, NULLs and SQLSTATEs.  Runs everything twice: text
// mode (prepareThreshold=0, binaryTransfer=false) and binary transfer
// (prepareThreshold=-1: server-prepared statements and binary results from
// the first execution).  Prints TAP.  Connects with PGHOST (a socket
// directory), PGPORT, PGUSER, PGDATABASE.
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

public class UlidJdbcTest {
    static int n = 0;

    static void check(boolean ok, String description) {
        n++;
        System.out.println((ok ? "ok " : "not ok ") + n + " - " + description);
    }

    // recipe: Ulids
    // ulid <-> java.util.UUID: the same 16 bytes, so a UUID is the natural Java
    // value for a ulid column.  Bind it with setObject(i, uuid) (sent as a
    // uuid, binary in binary transfer; ulid = uuid is an operator, and uuid
    // casts to ulid on assignment); read it with "SELECT id::uuid" and
    // getObject(i, UUID.class).  The 26-character text goes through
    // getString / setString (with stringtype=unspecified in the URL, or ?::ulid).
    static final String ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    static UUID uuidOf(String ulid) {
        long hi = 0, lo = 0;
        for (char c : ulid.toUpperCase().toCharArray()) {
            int v = ALPHABET.indexOf(c);
            if (v < 0 || ulid.length() != 26) throw new IllegalArgumentException("not a ULID: " + ulid);
            hi = (hi << 5) | (lo >>> 59);
            lo = (lo << 5) | v;
        }
        return new UUID(hi, lo);
    }

    static String ulidOf(UUID uuid) {
        char[] out = new char[26];
        long hi = uuid.getMostSignificantBits(), lo = uuid.getLeastSignificantBits();
        for (int i = 25; i >= 0; i--) {
            out[i] = ALPHABET.charAt((int) (lo & 31));
            lo = (lo >>> 5) | (hi << 59);
            hi >>>= 5;
        }
        return new String(out);
    }

    static long unixMillis(UUID uuid) {
        return uuid.getMostSignificantBits() >>> 16;
    }
    // recipe: end

    // pgjdbc speaks TCP; the test cluster listens on a Unix socket only
    public static class UnixSocketFactory extends javax.net.SocketFactory {
        private final String path;

        public UnixSocketFactory(String path) {
            this.path = path;
        }

        public Socket createSocket() {
            return new UnixSocket(path);
        }

        public Socket createSocket(String h, int p) throws IOException {
            Socket s = createSocket();
            s.connect(null);
            return s;
        }

        public Socket createSocket(String h, int p, InetAddress l, int lp) throws IOException {
            return createSocket(h, p);
        }

        public Socket createSocket(InetAddress h, int p) throws IOException {
            return createSocket((String) null, p);
        }

        public Socket createSocket(InetAddress h, int p, InetAddress l, int lp) throws IOException {
            return createSocket((String) null, p);
        }
    }

    static class UnixSocket extends Socket {
        private final String path;
        private SocketChannel channel;
        private InputStream in;
        private OutputStream out;

        UnixSocket(String path) {
            this.path = path;
        }

        public void connect(SocketAddress a) throws IOException {
            connect(a, 0);
        }

        public void connect(SocketAddress a, int timeout) throws IOException {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.connect(UnixDomainSocketAddress.of(path));
            in = Channels.newInputStream(channel);
            out = Channels.newOutputStream(channel);
        }

        public boolean isConnected() {
            return channel != null && channel.isConnected();
        }

        public InputStream getInputStream() {
            return in;
        }

        public OutputStream getOutputStream() {
            return out;
        }

        public synchronized void close() throws IOException {
            if (channel != null) channel.close();
        }

        public boolean isClosed() {
            return channel != null && !channel.isOpen();
        }

        public void setTcpNoDelay(boolean on) {}

        public void setKeepAlive(boolean on) {}

        public synchronized void setSoTimeout(int t) {}

        public synchronized int getSoTimeout() {
            return 0;
        }

        public synchronized void setReceiveBufferSize(int size) {}

        public synchronized void setSendBufferSize(int size) {}
    }

    static List<String> strings(PreparedStatement ps) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    static String one(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    static String sqlstate(ThrowingRunnable r) {
        try {
            r.run();
            return "no error";
        } catch (SQLException e) {
            return e.getSQLState();
        }
    }

    interface ThrowingRunnable {
        void run() throws SQLException;
    }

    static byte[] binaryCopy(List<byte[][]> rows) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(buf);
        d.write("PGCOPY\n\377\r\n\0".getBytes(StandardCharsets.ISO_8859_1));
        d.writeInt(0);
        d.writeInt(0);
        for (byte[][] row : rows) {
            d.writeShort(row.length);
            for (byte[] field : row) {
                d.writeInt(field.length);
                d.write(field);
            }
        }
        d.writeShort(-1);
        return buf.toByteArray();
    }

    // a ulid_flake's 13 characters (COPY's text format wants them, not the integer)
    static String flakeText(long v) {
        char[] out = new char[13];
        for (int i = 12; i >= 0; i--, v >>>= 5) out[i] = ALPHABET.charAt((int) (v & 31));
        return new String(out);
    }

    static byte[] bytesOf(UUID u) {
        return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
    }

    static void suite(String mode, String url) throws Exception {
        System.out.println("# " + mode + ": " + url.replaceAll("socketFactoryArg=[^&]*", "socketFactoryArg=..."));
        try (Connection c = DriverManager.getConnection(url, System.getenv("PGUSER"), "")) {
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS items");
                // 1. DDL, rows inserted, generated keys back
                st.execute("CREATE TABLE items (id ulid PRIMARY KEY DEFAULT ulid_generate(), name text NOT NULL, flake ulid_flake)");
            }
            List<String> generated = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO items (name) VALUES (?)", new String[] {"id"})) {
                for (int i = 0; i < 6; i++) { // past prepareThreshold's default of 5 too
                    ps.setString(1, "new " + i);
                    ps.executeUpdate();
                    try (ResultSet keys = ps.getGeneratedKeys()) {
                        keys.next();
                        generated.add(keys.getString(1));
                    }
                }
            }
            String first = generated.get(0);
            check(first.equals(one(c, "SELECT id::text FROM items WHERE name = 'new 0'")) && first.matches("[0-7][0-9A-HJKMNP-TV-Z]{25}"),
                mode + ": getGeneratedKeys gives the id: " + first);
            check(generated.get(0).compareTo(generated.get(1)) < 0 && generated.get(4).compareTo(generated.get(5)) < 0,
                mode + ": generated ids increase: " + generated.get(0) + " < " + generated.get(1) + " .. " + generated.get(5));

            // 2. find by id: text (needs stringtype=unspecified or ?::ulid), java.util.UUID
            try (PreparedStatement ps = c.prepareStatement("SELECT name FROM items WHERE id = ?::ulid")) {
                ps.setString(1, generated.get(1).toLowerCase());
                check(strings(ps).equals(List.of("new 1")), mode + ": find by id as text (lower case): " + strings(ps));
            }
            UUID asUuid = uuidOf(generated.get(2));
            try (PreparedStatement ps = c.prepareStatement("SELECT name, id::uuid FROM items WHERE id = ?")) {
                for (int i = 0; i < 6; i++) {
                    ps.setObject(1, asUuid);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (i == 5)
                            check(rs.getString(1).equals("new 2") && rs.getObject(2, UUID.class).equals(asUuid),
                                mode + ": find by id as java.util.UUID " + asUuid + " (6 times): " + rs.getString(1) + ", id::uuid read back as UUID " + rs.getObject(2, UUID.class));
                    }
                }
            }
            check(unixMillis(asUuid) == Long.parseLong(one(c, "SELECT ulid_unix_ms('" + generated.get(2) + "')"))
                    && ulidOf(asUuid).equals(generated.get(2)),
                mode + ": the UUID's first 48 bits are the server's ulid_unix_ms: " + unixMillis(asUuid));

            // 5. bulk load: COPY text and binary (CopyManager); ids one an hour on 2025-03-01
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            OffsetDateTime base = OffsetDateTime.of(2025, 3, 1, 0, 0, 0, 0, ZoneOffset.UTC);
            List<String> loaded = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT ulid_generate(?)::text")) {
                for (int h = 0; h < 10; h++) {
                    ps.setObject(1, base.plusHours(h));
                    loaded.addAll(strings(ps));
                }
            }
            StringBuilder text = new StringBuilder();
            for (int h = 0; h < 5; h++) text.append(loaded.get(h)).append("\thour ").append(h).append("\t").append(flakeText(14246757444195114L + h)).append("\n");
            long inText = copy.copyIn("COPY items (id, name, flake) FROM STDIN", new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)));
            List<byte[][]> binary = new ArrayList<>();
            for (int h = 5; h < 10; h++)
                binary.add(new byte[][] {bytesOf(uuidOf(loaded.get(h))), ("hour " + h).getBytes(StandardCharsets.UTF_8)});
            long inBinary = copy.copyIn("COPY items (id, name) FROM STDIN (FORMAT binary)", new ByteArrayInputStream(binaryCopy(binary)));
            check(inText == 5 && inBinary == 5 && one(c, "SELECT string_agg(name, ',' ORDER BY id) FROM items WHERE id::timestamptz < '2025-03-02'")
                    .equals("hour 0,hour 1,hour 2,hour 3,hour 4,hour 5,hour 6,hour 7,hour 8,hour 9"),
                mode + ": COPY text (" + inText + " rows) and binary (" + inBinary + " rows), each id at its hour");
            ByteArrayOutputStream outText = new ByteArrayOutputStream();
            copy.copyOut("COPY (SELECT id, flake FROM items WHERE name = 'hour 0') TO STDOUT", outText);
            check(outText.toString(StandardCharsets.UTF_8).equals(loaded.get(0) + "\t00CMXB6TAK4SA\n"),
                mode + ": COPY out, text: " + outText.toString(StandardCharsets.UTF_8).trim());

            // 3. a time range on the index: OffsetDateTime parameters
            try (Statement st = c.createStatement()) {
                st.execute("SET enable_seqscan = off");
            }
            String range = "SELECT id FROM items WHERE id <@ tstzrange(?, ?) ORDER BY id";
            try (PreparedStatement ps = c.prepareStatement(range)) {
                ps.setObject(1, base.plusHours(2));
                ps.setObject(2, base.plusHours(5));
                List<String> got = strings(ps);
                check(got.equals(loaded.subList(2, 5)), mode + ": id <@ tstzrange(02:00, 05:00): " + got);
            }
            try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + range)) {
                ps.setObject(1, base.plusHours(2));
                ps.setObject(2, base.plusHours(5));
                String plan = String.join(" / ", strings(ps));
                check(plan.contains("Index") && plan.contains("items_pkey"), mode + ": the plan uses the index: " + plan);
            }

            // 4. ORDER BY id, keyset pagination (the last id bound as a UUID)
            List<String> all = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM items ORDER BY id")) {
                all = strings(ps);
            }
            List<String> paged = new ArrayList<>();
            int pages = 0;
            try (PreparedStatement ps = c.prepareStatement("SELECT id::uuid FROM items WHERE id > ? ORDER BY id LIMIT 4")) {
                UUID last = new UUID(0, 0);
                for (;;) {
                    ps.setObject(1, last);
                    int got = 0;
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            last = rs.getObject(1, UUID.class);
                            paged.add(ulidOf(last));
                            got++;
                        }
                    }
                    if (got == 0) break;
                    pages++;
                }
            }
            List<String> sorted = new ArrayList<>(all);
            sorted.sort(null);
            check(all.size() == 16 && paged.equals(all) && sorted.equals(all),
                mode + ": keyset pages of 4: " + pages + " pages, " + paged.size() + " ids, as ORDER BY id, which is text order: " + all.get(0) + " .. " + all.get(all.size() - 1));

            // 6. ulid_flake as long: setLong in (int8, assignment cast), ::bigint out
            try (PreparedStatement ps = c.prepareStatement("UPDATE items SET flake = ? WHERE name = 'new 0' RETURNING flake::bigint, flake::text")) {
                ps.setLong(1, 1L << 62);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    check(rs.getLong(1) == 1L << 62 && rs.getString(2).equals("4000000000000"),
                        mode + ": ulid_flake written with setLong, read with getLong: " + rs.getLong(1) + ", text " + rs.getString(2));
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT name FROM items WHERE flake = ?")) {
                ps.setLong(1, 14246757444195114L + 3);
                check(strings(ps).equals(List.of("hour 3")), mode + ": find by ulid_flake = long (ulid_flake = bigint): " + strings(ps));
            }

            // 8. NULLs and bad values
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO items (name, flake) VALUES ('no flake', ?) RETURNING flake, flake::bigint")) {
                ps.setNull(1, Types.BIGINT);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    String s = rs.getString(1);
                    rs.getLong(2);
                    check(s == null && rs.wasNull(), mode + ": NULL in and out: " + s);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT id::uuid FROM items WHERE id = ?")) {
                ps.setNull(1, Types.OTHER);
                check(strings(ps).isEmpty(), mode + ": id = NULL finds nothing");
            }
            String bad = sqlstate(() -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT * FROM items WHERE id = ?::ulid")) {
                    ps.setString(1, "01ARZ3NDEKTSV4RRFFQ69G5FAU");
                    ps.executeQuery().close();
                }
            });
            check(bad.equals("22P02"), mode + ": a bad ulid text: SQLSTATE " + bad);
            String negative = sqlstate(() -> {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO items (name, flake) VALUES ('x', ?)")) {
                    ps.setLong(1, -1);
                    ps.executeUpdate();
                }
            });
            check(negative.equals("22003"), mode + ": a negative long for ulid_flake: SQLSTATE " + negative);
            String varchar = sqlstate(() -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT * FROM items WHERE id = ?")) {
                    ps.setString(1, first);
                    ps.executeQuery().close();
                }
            });
            check(varchar.equals("42883"), mode + ": setString without ?::ulid or stringtype=unspecified: SQLSTATE " + varchar + " (ulid = character varying does not exist)");
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE items");
            }
        }
        // with stringtype=unspecified, setString binds a ulid as is
        try (Connection c = DriverManager.getConnection(url + "&stringtype=unspecified", System.getenv("PGUSER"), "");
             PreparedStatement ps = c.prepareStatement("SELECT ulid_unix_ms(?)")) {
            ps.setString(1, "01JN7G1C00AAAAAAAAAAAAAAAA");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                check(rs.getLong(1) == 1740787200000L,
                    mode + ": with stringtype=unspecified, setString binds a ulid: ulid_unix_ms('01JN7G1C00AAAAAAAAAAAAAAAA') = " + rs.getLong(1));
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String host = System.getenv().getOrDefault("PGHOST", "/var/run/postgresql");
        String port = System.getenv().getOrDefault("PGPORT", "5432");
        String db = System.getenv("PGDATABASE");
        String base = "jdbc:postgresql://localhost:" + port + "/" + db + "?";
        if (host.startsWith("/"))
            base += "socketFactory=UlidJdbcTest$UnixSocketFactory&socketFactoryArg=" + host + "/.s.PGSQL." + port + "&";
        try (Connection c = DriverManager.getConnection(base, System.getenv("PGUSER"), "");
             Statement st = c.createStatement()) {
            st.execute("DROP EXTENSION IF EXISTS ulid CASCADE");
            st.execute("CREATE EXTENSION ulid");
            System.out.println("# pgjdbc " + c.getMetaData().getDriverVersion());
        }
        // independent checks of the UUID helpers
        check(uuidOf("01ARZ3NDEKTSV4RRFFQ69G5FAV").toString().equals("01563e3a-b5d3-d676-4c61-efb99302bd5b")
                && ulidOf(UUID.fromString("01563e3a-b5d3-d676-4c61-efb99302bd5b")).equals("01ARZ3NDEKTSV4RRFFQ69G5FAV"),
            "uuidOf / ulidOf: 01ARZ3NDEKTSV4RRFFQ69G5FAV is 01563e3a-b5d3-d676-4c61-efb99302bd5b");
        try {
            suite("text", base + "prepareThreshold=0&binaryTransfer=false");
            suite("binary", base + "prepareThreshold=-1&binaryTransfer=true");
        } catch (Exception e) {
            check(false, e.toString().replace("\n", " / "));
            e.printStackTrace(System.out);
            System.out.println("1.." + n);
            System.exit(1);
        }
        System.out.println("1.." + n);
    }
}
