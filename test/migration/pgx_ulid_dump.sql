--
-- PostgreSQL database dump
--

-- Dumped from database version 15.8
-- Dumped by pg_dump version 15.8

-- A database that used pgx_ulid (installed as "ulid"), written in the shape
-- pg_dump gives it, from pgx_ulid's documented SQL surface: test fixture of
-- test/suites/migrate_pgx_ulid.sh.  The ids and their times are rows of
-- test/vectors/ulid_vectors.csv.

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: ulid; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS ulid WITH SCHEMA public;


--
-- Name: EXTENSION ulid; Type: COMMENT; Schema: -; Owner: 
--

COMMENT ON EXTENSION ulid IS 'ulid type and methods';


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: users; Type: TABLE; Schema: public; Owner: app
--

CREATE TABLE public.users (
    id public.ulid DEFAULT public.gen_ulid() NOT NULL,
    name text NOT NULL,
    created_at timestamp without time zone GENERATED ALWAYS AS ((id)::timestamp without time zone) STORED
);


ALTER TABLE public.users OWNER TO app;

--
-- Name: events; Type: TABLE; Schema: public; Owner: app
--

CREATE TABLE public.events (
    id public.ulid DEFAULT public.gen_monotonic_ulid() NOT NULL,
    user_id public.ulid NOT NULL,
    legacy_id uuid,
    happened_at timestamp with time zone GENERATED ALWAYS AS (public.ulid_to_timestamptz(id)) STORED,
    payload text
);


ALTER TABLE public.events OWNER TO app;

--
-- Name: event_times; Type: VIEW; Schema: public; Owner: app
--

CREATE VIEW public.event_times AS
 SELECT e.id,
    public.ulid_to_timestamp(e.id) AS at_utc,
    (e.id)::timestamp with time zone AS at,
    (e.id)::uuid AS as_uuid,
    public.ulid_to_bytea(e.id) AS as_bytea,
    u.name
   FROM (public.events e
     JOIN public.users u ON ((u.id = e.user_id)))
  WHERE (e.id >= ('2017-01-01 00:00:00'::timestamp without time zone)::public.ulid);


ALTER TABLE public.event_times OWNER TO app;

--
-- Name: legacy_matches; Type: VIEW; Schema: public; Owner: app
--

CREATE VIEW public.legacy_matches AS
 SELECT e.id,
    e.legacy_id
   FROM public.events e
  WHERE (e.id = e.legacy_id);


ALTER TABLE public.legacy_matches OWNER TO app;

--
-- Name: user_ranges; Type: VIEW; Schema: public; Owner: app
--

CREATE VIEW public.user_ranges AS
 SELECT users.name
   FROM public.users
  WHERE ((users.id >= public.timestamptz_to_ulid('2025-03-24 00:00:00+00'::timestamp with time zone)) AND (users.id < public.timestamp_to_ulid('2025-03-25 00:00:00'::timestamp without time zone)) AND (public.ulid_to_uuid(users.id) <> public.ulid_to_uuid(public.ulid_from_uuid('00000000-0000-0000-0000-000000000000'::uuid))));


ALTER TABLE public.user_ranges OWNER TO app;

--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: app
--

COPY public.events (id, user_id, legacy_id, payload) FROM stdin;
01BX5ZZKBKACTAV9WEVGEMMVRZ	01ARZ3NDEKTSV4RRFFQ69G5FAV	015f4bff-cd73-5334-ada7-8edc1d4a6f1f	signed up
01BX5ZZKBKACTAV9WEVGEMMVS0	01ARZ3NDEKTSV4RRFFQ69G5FAV	\N	logged in
01JQ4T23H220KM7X0B3V1109DQ	01JQ4T23H220KM7X0B3V1109DQ	0195c9a1-0e22-1027-43f4-0b1ec21025b7	signed up
01JQ4T8BHJR0A5YKX7SVTVX0YN	01JQ4T23H220KM7X0B3V1109DQ	00000000-0000-0000-0000-000000000001	paid
\.


--
-- Data for Name: users; Type: TABLE DATA; Schema: public; Owner: app
--

COPY public.users (id, name) FROM stdin;
01ARZ3NDEKTSV4RRFFQ69G5FAV	alice
01JQ4T23H220KM7X0B3V1109DQ	bob
01JQ4T8BHJR0A5YKX7SVTVX0YN	carol
\.


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: app
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: app
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: events_happened; Type: INDEX; Schema: public; Owner: app
--

CREATE INDEX events_happened ON public.events USING btree (((id)::timestamp without time zone));


--
-- Name: events_user_id; Type: INDEX; Schema: public; Owner: app
--

CREATE INDEX events_user_id ON public.events USING hash (user_id);


--
-- Name: events events_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: app
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id);


--
-- PostgreSQL database dump complete
--

