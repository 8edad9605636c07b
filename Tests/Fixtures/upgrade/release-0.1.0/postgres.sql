--
-- PostgreSQL database dump
--

\restrict n4Pz8K1VH1vup2xiQ1NigHDZAfUlm7aUzBTeOpqvV3ADTG19sw6LOHhfwPeX2DY

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

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
-- Name: copy; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA copy;


--
-- Name: typed_timestamp(text); Type: FUNCTION; Schema: copy; Owner: -
--

CREATE FUNCTION copy.typed_timestamp(written text) RETURNS timestamp with time zone
    LANGUAGE plpgsql IMMUTABLE
    AS $$
BEGIN
    RETURN (CASE WHEN length(written) = 10 THEN written || 'T00:00:00Z'
                 WHEN translate(substr(written, 12), '0123456789:.', '') = '' THEN written || 'Z'
                 ELSE written END)::timestamptz;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: agents; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.agents (
    id text NOT NULL,
    started_at timestamp with time zone NOT NULL,
    heartbeat_at timestamp with time zone NOT NULL
);


--
-- Name: changes; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.changes (
    seq bigint NOT NULL,
    resource text NOT NULL,
    key text NOT NULL,
    op text NOT NULL,
    sync_run bigint,
    at timestamp with time zone NOT NULL,
    CONSTRAINT changes_op_check CHECK ((op = ANY (ARRAY['insert'::text, 'update'::text, 'delete'::text])))
);


--
-- Name: cursors; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.cursors (
    resource text NOT NULL,
    scope text NOT NULL,
    request text NOT NULL,
    since timestamp with time zone,
    walk text,
    walk_pages integer,
    walk_sent timestamp with time zone,
    walk_largest timestamp with time zone,
    walk_run bigint,
    full_at timestamp with time zone,
    updated_at timestamp with time zone NOT NULL,
    since_token text,
    walk_sent_token text,
    walk_largest_token text
);


--
-- Name: feed_state; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.feed_state (
    only_row boolean DEFAULT true NOT NULL,
    last_seq bigint NOT NULL,
    CONSTRAINT feed_state_only_row_check CHECK (only_row)
);


--
-- Name: leases; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.leases (
    resource text NOT NULL,
    owner text,
    token bigint DEFAULT 0 NOT NULL,
    expires_at timestamp with time zone DEFAULT '-infinity'::timestamp with time zone NOT NULL
);


--
-- Name: migrations; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.migrations (
    id integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: oauth2_refresh_tokens; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.oauth2_refresh_tokens (
    auth text NOT NULL,
    configured text NOT NULL,
    refresh_token text NOT NULL,
    rotated_at timestamp with time zone NOT NULL
);


--
-- Name: pages; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.pages (
    resource text NOT NULL,
    number integer NOT NULL,
    request text NOT NULL,
    etag text,
    last_modified text,
    next text,
    item_count integer NOT NULL
);


--
-- Name: records; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.records (
    resource text NOT NULL,
    key text NOT NULL,
    data jsonb NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    page integer
);


--
-- Name: resources; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.resources (
    name text NOT NULL,
    state text DEFAULT 'idle'::text NOT NULL,
    last_success_at timestamp with time zone,
    last_attempt_at timestamp with time zone,
    last_error text,
    etag text,
    last_modified text,
    item_count bigint DEFAULT 0 NOT NULL,
    last_error_kind text,
    last_error_status integer,
    validators_scope text,
    since timestamp with time zone,
    since_token text,
    CONSTRAINT resources_state_check CHECK ((state = ANY (ARRAY['idle'::text, 'syncing'::text, 'retrying'::text, 'waiting'::text, 'offline'::text, 'failed'::text])))
);


--
-- Name: snapshots; Type: TABLE; Schema: copy; Owner: -
--

CREATE UNLOGGED TABLE copy.snapshots (
    id bigint NOT NULL,
    resource text NOT NULL,
    began_at timestamp with time zone NOT NULL
);


--
-- Name: snapshots_id_seq; Type: SEQUENCE; Schema: copy; Owner: -
--

ALTER TABLE copy.snapshots ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME copy.snapshots_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: staging; Type: TABLE; Schema: copy; Owner: -
--

CREATE UNLOGGED TABLE copy.staging (
    snapshot bigint NOT NULL,
    key text NOT NULL,
    data text NOT NULL,
    page integer
);


--
-- Name: sync_runs; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.sync_runs (
    id bigint NOT NULL,
    resource text NOT NULL,
    trigger text NOT NULL,
    started_at timestamp with time zone NOT NULL,
    finished_at timestamp with time zone,
    outcome text,
    attempts integer NOT NULL,
    pages integer NOT NULL,
    items bigint NOT NULL,
    bytes bigint NOT NULL,
    wire_bytes bigint DEFAULT 0 NOT NULL,
    error text,
    error_kind text,
    error_status integer,
    added bigint DEFAULT 0 NOT NULL,
    changed bigint DEFAULT 0 NOT NULL,
    removed bigint DEFAULT 0 NOT NULL,
    since timestamp with time zone,
    agent text,
    since_token text,
    CONSTRAINT sync_runs_outcome_check CHECK ((outcome = ANY (ARRAY['success'::text, 'notModified'::text, 'failed'::text, 'gaveUp'::text, 'rateLimited'::text, 'offline'::text, 'cancelled'::text]))),
    CONSTRAINT sync_runs_running_or_ended CHECK (((outcome IS NULL) = (finished_at IS NULL))),
    CONSTRAINT sync_runs_trigger_check CHECK ((trigger = ANY (ARRAY['poll'::text, 'refresh'::text, 'startup'::text, 'dependency'::text])))
);


--
-- Name: sync_runs_id_seq; Type: SEQUENCE; Schema: copy; Owner: -
--

ALTER TABLE copy.sync_runs ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME copy.sync_runs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: typed_tables; Type: TABLE; Schema: copy; Owner: -
--

CREATE TABLE copy.typed_tables (
    resource text NOT NULL,
    declaration text NOT NULL,
    built_at timestamp with time zone NOT NULL,
    misfit_table text,
    misfit_column text,
    misfit_key text,
    misfit_pointer text
);


--
-- Data for Name: agents; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.agents (id, started_at, heartbeat_at) FROM stdin;
\.


--
-- Data for Name: changes; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.changes (seq, resource, key, op, sync_run, at) FROM stdin;
1	inventory	doc-0001	insert	1	2026-12-07 08:42:06.645+00
2	inventory	doc-0002	insert	1	2026-12-07 08:42:06.645+00
3	inventory	doc-0003	insert	1	2026-12-07 08:42:06.645+00
4	inventory	doc-0004	insert	1	2026-12-07 08:42:06.645+00
5	inventory	doc-0005	insert	1	2026-12-07 08:42:06.645+00
6	inventory	doc-0006	insert	1	2026-12-07 08:42:06.645+00
7	inventory	doc-0007	insert	1	2026-12-07 08:42:06.645+00
8	inventory	doc-0008	insert	1	2026-12-07 08:42:06.645+00
9	inventory	doc-0009	insert	1	2026-12-07 08:42:06.645+00
10	inventory	doc-0010	insert	1	2026-12-07 08:42:06.645+00
11	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000001	insert	2	2026-12-07 08:42:06.646+00
12	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000002	insert	2	2026-12-07 08:42:06.646+00
13	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000003	insert	2	2026-12-07 08:42:06.646+00
14	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000004	insert	2	2026-12-07 08:42:06.646+00
15	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000005	insert	2	2026-12-07 08:42:06.646+00
16	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000006	insert	2	2026-12-07 08:42:06.646+00
17	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000007	insert	2	2026-12-07 08:42:06.646+00
18	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000008	insert	2	2026-12-07 08:42:06.646+00
19	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000009	insert	2	2026-12-07 08:42:06.646+00
20	users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000a	insert	2	2026-12-07 08:42:06.646+00
21	links	1	insert	3	2026-12-07 08:42:06.652+00
22	links	10	insert	3	2026-12-07 08:42:06.652+00
23	links	11	insert	3	2026-12-07 08:42:06.652+00
24	links	12	insert	3	2026-12-07 08:42:06.652+00
25	links	13	insert	3	2026-12-07 08:42:06.652+00
26	links	14	insert	3	2026-12-07 08:42:06.652+00
27	links	15	insert	3	2026-12-07 08:42:06.652+00
28	links	16	insert	3	2026-12-07 08:42:06.652+00
29	links	17	insert	3	2026-12-07 08:42:06.652+00
30	links	18	insert	3	2026-12-07 08:42:06.652+00
31	links	19	insert	3	2026-12-07 08:42:06.652+00
32	links	2	insert	3	2026-12-07 08:42:06.652+00
33	links	20	insert	3	2026-12-07 08:42:06.652+00
34	links	21	insert	3	2026-12-07 08:42:06.652+00
35	links	22	insert	3	2026-12-07 08:42:06.652+00
36	links	23	insert	3	2026-12-07 08:42:06.652+00
37	links	24	insert	3	2026-12-07 08:42:06.652+00
38	links	25	insert	3	2026-12-07 08:42:06.652+00
39	links	26	insert	3	2026-12-07 08:42:06.652+00
40	links	27	insert	3	2026-12-07 08:42:06.652+00
41	links	28	insert	3	2026-12-07 08:42:06.652+00
42	links	29	insert	3	2026-12-07 08:42:06.652+00
43	links	3	insert	3	2026-12-07 08:42:06.652+00
44	links	30	insert	3	2026-12-07 08:42:06.652+00
45	links	4	insert	3	2026-12-07 08:42:06.652+00
46	links	5	insert	3	2026-12-07 08:42:06.652+00
47	links	6	insert	3	2026-12-07 08:42:06.652+00
48	links	7	insert	3	2026-12-07 08:42:06.652+00
49	links	8	insert	3	2026-12-07 08:42:06.652+00
50	links	9	insert	3	2026-12-07 08:42:06.652+00
51	pages	1	insert	4	2026-12-07 08:42:06.669+00
52	pages	10	insert	4	2026-12-07 08:42:06.669+00
53	pages	11	insert	4	2026-12-07 08:42:06.669+00
54	pages	12	insert	4	2026-12-07 08:42:06.669+00
55	pages	13	insert	4	2026-12-07 08:42:06.669+00
56	pages	14	insert	4	2026-12-07 08:42:06.669+00
57	pages	15	insert	4	2026-12-07 08:42:06.669+00
58	pages	16	insert	4	2026-12-07 08:42:06.669+00
59	pages	17	insert	4	2026-12-07 08:42:06.669+00
60	pages	18	insert	4	2026-12-07 08:42:06.669+00
61	pages	19	insert	4	2026-12-07 08:42:06.669+00
62	pages	2	insert	4	2026-12-07 08:42:06.669+00
63	pages	20	insert	4	2026-12-07 08:42:06.669+00
64	pages	21	insert	4	2026-12-07 08:42:06.669+00
65	pages	22	insert	4	2026-12-07 08:42:06.669+00
66	pages	23	insert	4	2026-12-07 08:42:06.669+00
67	pages	24	insert	4	2026-12-07 08:42:06.669+00
68	pages	25	insert	4	2026-12-07 08:42:06.669+00
69	pages	26	insert	4	2026-12-07 08:42:06.669+00
70	pages	27	insert	4	2026-12-07 08:42:06.669+00
71	pages	28	insert	4	2026-12-07 08:42:06.669+00
72	pages	29	insert	4	2026-12-07 08:42:06.669+00
73	pages	3	insert	4	2026-12-07 08:42:06.669+00
74	pages	30	insert	4	2026-12-07 08:42:06.669+00
75	pages	31	insert	4	2026-12-07 08:42:06.669+00
76	pages	32	insert	4	2026-12-07 08:42:06.669+00
77	pages	33	insert	4	2026-12-07 08:42:06.669+00
78	pages	34	insert	4	2026-12-07 08:42:06.669+00
79	pages	35	insert	4	2026-12-07 08:42:06.669+00
80	pages	36	insert	4	2026-12-07 08:42:06.669+00
81	pages	37	insert	4	2026-12-07 08:42:06.669+00
82	pages	38	insert	4	2026-12-07 08:42:06.669+00
83	pages	39	insert	4	2026-12-07 08:42:06.669+00
84	pages	4	insert	4	2026-12-07 08:42:06.669+00
85	pages	40	insert	4	2026-12-07 08:42:06.669+00
86	pages	41	insert	4	2026-12-07 08:42:06.669+00
87	pages	42	insert	4	2026-12-07 08:42:06.669+00
88	pages	43	insert	4	2026-12-07 08:42:06.669+00
89	pages	44	insert	4	2026-12-07 08:42:06.669+00
90	pages	45	insert	4	2026-12-07 08:42:06.669+00
91	pages	46	insert	4	2026-12-07 08:42:06.669+00
92	pages	47	insert	4	2026-12-07 08:42:06.669+00
93	pages	48	insert	4	2026-12-07 08:42:06.669+00
94	pages	49	insert	4	2026-12-07 08:42:06.669+00
95	pages	5	insert	4	2026-12-07 08:42:06.669+00
96	pages	50	insert	4	2026-12-07 08:42:06.669+00
97	pages	51	insert	4	2026-12-07 08:42:06.669+00
98	pages	52	insert	4	2026-12-07 08:42:06.669+00
99	pages	53	insert	4	2026-12-07 08:42:06.669+00
100	pages	54	insert	4	2026-12-07 08:42:06.669+00
101	pages	55	insert	4	2026-12-07 08:42:06.669+00
102	pages	56	insert	4	2026-12-07 08:42:06.669+00
103	pages	57	insert	4	2026-12-07 08:42:06.669+00
104	pages	58	insert	4	2026-12-07 08:42:06.669+00
105	pages	59	insert	4	2026-12-07 08:42:06.669+00
106	pages	6	insert	4	2026-12-07 08:42:06.669+00
107	pages	60	insert	4	2026-12-07 08:42:06.669+00
108	pages	7	insert	4	2026-12-07 08:42:06.669+00
109	pages	8	insert	4	2026-12-07 08:42:06.669+00
110	pages	9	insert	4	2026-12-07 08:42:06.669+00
111	cursors	1	insert	5	2026-12-07 08:42:06.672+00
112	cursors	10	insert	5	2026-12-07 08:42:06.672+00
113	cursors	11	insert	5	2026-12-07 08:42:06.672+00
114	cursors	12	insert	5	2026-12-07 08:42:06.672+00
115	cursors	13	insert	5	2026-12-07 08:42:06.672+00
116	cursors	14	insert	5	2026-12-07 08:42:06.672+00
117	cursors	15	insert	5	2026-12-07 08:42:06.672+00
118	cursors	16	insert	5	2026-12-07 08:42:06.672+00
119	cursors	17	insert	5	2026-12-07 08:42:06.672+00
120	cursors	18	insert	5	2026-12-07 08:42:06.672+00
121	cursors	19	insert	5	2026-12-07 08:42:06.672+00
122	cursors	2	insert	5	2026-12-07 08:42:06.672+00
123	cursors	20	insert	5	2026-12-07 08:42:06.672+00
124	cursors	21	insert	5	2026-12-07 08:42:06.672+00
125	cursors	22	insert	5	2026-12-07 08:42:06.672+00
126	cursors	23	insert	5	2026-12-07 08:42:06.672+00
127	cursors	24	insert	5	2026-12-07 08:42:06.672+00
128	cursors	25	insert	5	2026-12-07 08:42:06.672+00
129	cursors	26	insert	5	2026-12-07 08:42:06.672+00
130	cursors	27	insert	5	2026-12-07 08:42:06.672+00
131	cursors	28	insert	5	2026-12-07 08:42:06.672+00
132	cursors	29	insert	5	2026-12-07 08:42:06.672+00
133	cursors	3	insert	5	2026-12-07 08:42:06.672+00
134	cursors	30	insert	5	2026-12-07 08:42:06.672+00
135	cursors	4	insert	5	2026-12-07 08:42:06.672+00
136	cursors	5	insert	5	2026-12-07 08:42:06.672+00
137	cursors	6	insert	5	2026-12-07 08:42:06.672+00
138	cursors	7	insert	5	2026-12-07 08:42:06.672+00
139	cursors	8	insert	5	2026-12-07 08:42:06.672+00
140	cursors	9	insert	5	2026-12-07 08:42:06.672+00
182	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000015	insert	2	2026-12-07 08:42:06.86+00
183	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000016	insert	2	2026-12-07 08:42:06.86+00
184	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000017	insert	2	2026-12-07 08:42:06.86+00
185	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000018	insert	2	2026-12-07 08:42:06.86+00
186	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000019	insert	2	2026-12-07 08:42:06.86+00
187	users	6e3b2f1a-0c4d-4e5f-8a9b-00000000001a	insert	2	2026-12-07 08:42:06.86+00
188	users	6e3b2f1a-0c4d-4e5f-8a9b-00000000001b	insert	2	2026-12-07 08:42:06.86+00
189	users	6e3b2f1a-0c4d-4e5f-8a9b-00000000001c	insert	2	2026-12-07 08:42:06.86+00
190	users	6e3b2f1a-0c4d-4e5f-8a9b-00000000001d	insert	2	2026-12-07 08:42:06.86+00
191	users	6e3b2f1a-0c4d-4e5f-8a9b-00000000001e	insert	2	2026-12-07 08:42:06.86+00
141	inventory	doc-0011	insert	1	2026-12-07 08:42:06.692+00
142	inventory	doc-0012	insert	1	2026-12-07 08:42:06.692+00
143	inventory	doc-0013	insert	1	2026-12-07 08:42:06.692+00
144	inventory	doc-0014	insert	1	2026-12-07 08:42:06.692+00
145	inventory	doc-0015	insert	1	2026-12-07 08:42:06.692+00
146	inventory	doc-0016	insert	1	2026-12-07 08:42:06.692+00
147	inventory	doc-0017	insert	1	2026-12-07 08:42:06.692+00
148	inventory	doc-0018	insert	1	2026-12-07 08:42:06.692+00
149	inventory	doc-0019	insert	1	2026-12-07 08:42:06.692+00
150	inventory	doc-0020	insert	1	2026-12-07 08:42:06.692+00
151	journal	1	insert	7	2026-12-07 08:42:06.673+00
152	journal	2	insert	7	2026-12-07 08:42:06.673+00
153	journal	3	insert	7	2026-12-07 08:42:06.673+00
154	journal	4	insert	7	2026-12-07 08:42:06.673+00
155	journal	5	insert	7	2026-12-07 08:42:06.673+00
156	journal	6	insert	7	2026-12-07 08:42:06.816+00
157	journal	7	insert	7	2026-12-07 08:42:06.816+00
158	journal	8	insert	7	2026-12-07 08:42:06.816+00
159	journal	9	insert	7	2026-12-07 08:42:06.816+00
160	journal	10	insert	7	2026-12-07 08:42:06.816+00
161	me	1	insert	8	2026-12-07 08:42:06.686+00
202	journal	11	insert	7	2026-12-07 08:42:06.841+00
203	journal	12	insert	7	2026-12-07 08:42:06.841+00
204	journal	13	insert	7	2026-12-07 08:42:06.841+00
205	journal	14	insert	7	2026-12-07 08:42:06.841+00
206	journal	15	insert	7	2026-12-07 08:42:06.841+00
222	events	21	insert	6	2026-12-07 08:42:06.946+00
223	events	22	insert	6	2026-12-07 08:42:06.946+00
224	events	23	insert	6	2026-12-07 08:42:06.946+00
225	events	24	insert	6	2026-12-07 08:42:06.946+00
226	events	25	insert	6	2026-12-07 08:42:06.946+00
227	events	26	insert	6	2026-12-07 08:42:06.946+00
228	events	27	insert	6	2026-12-07 08:42:06.946+00
229	events	28	insert	6	2026-12-07 08:42:06.946+00
230	events	29	insert	6	2026-12-07 08:42:06.946+00
231	events	30	insert	6	2026-12-07 08:42:06.946+00
162	users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000b	insert	2	2026-12-07 08:42:06.739+00
163	users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000c	insert	2	2026-12-07 08:42:06.739+00
164	users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000d	insert	2	2026-12-07 08:42:06.739+00
165	users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000e	insert	2	2026-12-07 08:42:06.739+00
166	users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000f	insert	2	2026-12-07 08:42:06.739+00
167	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000010	insert	2	2026-12-07 08:42:06.739+00
168	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000011	insert	2	2026-12-07 08:42:06.739+00
169	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000012	insert	2	2026-12-07 08:42:06.739+00
170	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000013	insert	2	2026-12-07 08:42:06.739+00
171	users	6e3b2f1a-0c4d-4e5f-8a9b-000000000014	insert	2	2026-12-07 08:42:06.739+00
172	events	1	insert	6	2026-12-07 08:42:06.658+00
173	events	2	insert	6	2026-12-07 08:42:06.658+00
174	events	3	insert	6	2026-12-07 08:42:06.658+00
175	events	4	insert	6	2026-12-07 08:42:06.658+00
176	events	5	insert	6	2026-12-07 08:42:06.658+00
177	events	6	insert	6	2026-12-07 08:42:06.658+00
178	events	7	insert	6	2026-12-07 08:42:06.658+00
179	events	8	insert	6	2026-12-07 08:42:06.658+00
180	events	9	insert	6	2026-12-07 08:42:06.658+00
181	events	10	insert	6	2026-12-07 08:42:06.658+00
192	inventory	doc-0021	insert	1	2026-12-07 08:42:06.805+00
193	inventory	doc-0022	insert	1	2026-12-07 08:42:06.805+00
194	inventory	doc-0023	insert	1	2026-12-07 08:42:06.805+00
195	inventory	doc-0024	insert	1	2026-12-07 08:42:06.805+00
196	inventory	doc-0025	insert	1	2026-12-07 08:42:06.805+00
197	inventory	doc-0026	insert	1	2026-12-07 08:42:06.805+00
198	inventory	doc-0027	insert	1	2026-12-07 08:42:06.805+00
199	inventory	doc-0028	insert	1	2026-12-07 08:42:06.805+00
200	inventory	doc-0029	insert	1	2026-12-07 08:42:06.805+00
201	inventory	doc-0030	insert	1	2026-12-07 08:42:06.805+00
217	journal	16	insert	7	2026-12-07 08:42:06.929+00
218	journal	17	insert	7	2026-12-07 08:42:06.929+00
219	journal	18	insert	7	2026-12-07 08:42:06.929+00
220	journal	19	insert	7	2026-12-07 08:42:06.929+00
221	journal	20	insert	7	2026-12-07 08:42:06.929+00
232	journal	21	insert	7	2026-12-07 08:42:06.962+00
233	journal	22	insert	7	2026-12-07 08:42:06.962+00
234	journal	23	insert	7	2026-12-07 08:42:06.962+00
235	journal	24	insert	7	2026-12-07 08:42:06.962+00
236	journal	25	insert	7	2026-12-07 08:42:06.962+00
237	journal	26	insert	7	2026-12-07 08:42:06.996+00
238	journal	27	insert	7	2026-12-07 08:42:06.996+00
239	journal	28	insert	7	2026-12-07 08:42:06.996+00
240	journal	29	insert	7	2026-12-07 08:42:06.996+00
241	journal	30	insert	7	2026-12-07 08:42:06.996+00
242	journal	31	insert	7	2026-12-07 08:42:07.011+00
243	journal	32	insert	7	2026-12-07 08:42:07.011+00
244	journal	33	insert	7	2026-12-07 08:42:07.011+00
245	journal	34	insert	7	2026-12-07 08:42:07.011+00
246	journal	35	insert	7	2026-12-07 08:42:07.011+00
247	journal	36	insert	7	2026-12-07 08:42:07.022+00
248	journal	37	insert	7	2026-12-07 08:42:07.022+00
249	journal	38	insert	7	2026-12-07 08:42:07.022+00
250	journal	39	insert	7	2026-12-07 08:42:07.022+00
251	journal	40	insert	7	2026-12-07 08:42:07.022+00
252	mine	1	insert	9	2026-12-07 08:42:07.049+00
253	mine	2	insert	9	2026-12-07 08:42:07.049+00
254	mine	3	insert	9	2026-12-07 08:42:07.049+00
255	mine	4	insert	9	2026-12-07 08:42:07.049+00
256	mine	5	insert	9	2026-12-07 08:42:07.049+00
257	mine	6	insert	9	2026-12-07 08:42:07.049+00
258	mine	7	insert	9	2026-12-07 08:42:07.049+00
259	mine	8	insert	9	2026-12-07 08:42:07.049+00
260	mine	9	insert	9	2026-12-07 08:42:07.049+00
261	mine	10	insert	9	2026-12-07 08:42:07.049+00
262	mine	11	insert	9	2026-12-07 08:42:07.071+00
263	mine	12	insert	9	2026-12-07 08:42:07.071+00
264	mine	13	insert	9	2026-12-07 08:42:07.071+00
265	mine	14	insert	9	2026-12-07 08:42:07.071+00
266	mine	15	insert	9	2026-12-07 08:42:07.071+00
267	mine	16	insert	9	2026-12-07 08:42:07.071+00
268	mine	17	insert	9	2026-12-07 08:42:07.071+00
269	mine	18	insert	9	2026-12-07 08:42:07.071+00
270	mine	19	insert	9	2026-12-07 08:42:07.071+00
271	mine	20	insert	9	2026-12-07 08:42:07.071+00
207	events	11	insert	6	2026-12-07 08:42:06.879+00
208	events	12	insert	6	2026-12-07 08:42:06.879+00
209	events	13	insert	6	2026-12-07 08:42:06.879+00
210	events	14	insert	6	2026-12-07 08:42:06.879+00
211	events	15	insert	6	2026-12-07 08:42:06.879+00
212	events	16	insert	6	2026-12-07 08:42:06.879+00
213	events	17	insert	6	2026-12-07 08:42:06.879+00
214	events	18	insert	6	2026-12-07 08:42:06.879+00
215	events	19	insert	6	2026-12-07 08:42:06.879+00
216	events	20	insert	6	2026-12-07 08:42:06.879+00
272	journal	1	update	10	2026-12-07 08:42:07.187+00
273	journal	2	update	10	2026-12-07 08:42:07.187+00
274	journal	3	update	10	2026-12-07 08:42:07.187+00
275	journal	4	update	10	2026-12-07 08:42:07.187+00
276	journal	5	update	10	2026-12-07 08:42:07.205+00
277	journal	6	update	10	2026-12-07 08:42:07.205+00
278	journal	7	update	10	2026-12-07 08:42:07.205+00
279	journal	8	update	10	2026-12-07 08:42:07.205+00
280	journal	9	update	10	2026-12-07 08:42:07.205+00
\.


--
-- Data for Name: cursors; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.cursors (resource, scope, request, since, walk, walk_pages, walk_sent, walk_largest, walk_run, full_at, updated_at, since_token, walk_sent_token, walk_largest_token) FROM stdin;
users		a7269864e52feaf7	\N	\N	\N	\N	\N	\N	2026-12-07 08:42:06.858+00	2026-12-07 08:42:06.86+00	http://upstream.fixture.test/v1.0/users/delta?$deltatoken=ZGVsdGF8MTAwMDAwMXwxMDAwMDAwfDB8MHwxNzk2NjMyOTI2NzQ0fA	\N	\N
inventory		dea7e16176bae08c	\N	\N	\N	\N	\N	\N	2026-12-07 08:42:06.803+00	2026-12-07 08:42:06.805+00	30-g1AAAAczMwaTMw	\N	\N
events		565e19883ba7d160	2026-01-01 00:00:30+00	\N	\N	\N	\N	\N	2026-12-07 08:42:06.978+00	2026-12-07 08:42:06.979+00	\N	\N	\N
mine	me/id=1	4526df20fe5f9007	2026-01-01 00:00:20+00	\N	\N	\N	\N	\N	2026-12-07 08:42:07.086+00	2026-12-07 08:42:07.087+00	\N	\N	\N
journal		aac42ee4981491c2	2026-01-01 00:00:40+00	{"url":"http://upstream.fixture.test/incremental/journal?updated_since=2026-01-01T00%3A00%3A40Z&page=3&per_page=5","position":3,"seen":[],"received":10}	2	2026-01-01 00:00:40+00	2026-01-12 13:46:49+00	10	2026-12-07 08:42:07.031+00	2026-12-07 08:42:07.205+00	\N	\N	\N
\.


--
-- Data for Name: feed_state; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.feed_state (only_row, last_seq) FROM stdin;
t	280
\.


--
-- Data for Name: leases; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.leases (resource, owner, token, expires_at) FROM stdin;
pages	\N	1	-infinity
cursors	\N	1	-infinity
links	\N	1	-infinity
events	\N	1	-infinity
inventory	\N	1	-infinity
users	\N	1	-infinity
me	\N	1	-infinity
mine	\N	1	-infinity
journal	\N	2	-infinity
\.


--
-- Data for Name: migrations; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.migrations (id, name, applied_at) FROM stdin;
1	Create the tables of the copy	2026-12-07 08:42:06.400758+00
2	Lease each resource to one agent of a fleet	2026-12-07 08:42:06.400758+00
3	Let a running sync's row have no outcome yet	2026-12-07 08:42:06.400758+00
4	Keep opaque incremental state	2026-12-07 08:42:06.400758+00
5	Keep typed tables	2026-12-07 08:42:06.400758+00
\.


--
-- Data for Name: oauth2_refresh_tokens; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.oauth2_refresh_tokens (auth, configured, refresh_token, rotated_at) FROM stdin;
\.


--
-- Data for Name: pages; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.pages (resource, number, request, etag, last_modified, next, item_count) FROM stdin;
links	1	b7a1eb2f5bd2c158	"f64c5ceddd153c51"	Thu, 01 Jan 2026 00:00:00 GMT	{"url":"http://upstream.fixture.test/link/linked?page=2&per_page=10","position":0,"seen":["http://upstream.fixture.test/link/linked?per_page=10"],"received":10}	10
links	2	9b3c45bcab16cdc2	"88fc110d0d8a0aa5"	Thu, 01 Jan 2026 00:00:00 GMT	{"url":"http://upstream.fixture.test/link/linked?page=3&per_page=10","position":0,"seen":["http://upstream.fixture.test/link/linked?page=2&per_page=10"],"received":20}	10
links	3	6c7aebb4f5fee18f	"07561349820410d0"	Thu, 01 Jan 2026 00:00:00 GMT	\N	10
pages	1	16719ebeca18c783	"49a5abe41991b7a1"	Thu, 01 Jan 2026 00:00:00 GMT	{"url":"http://upstream.fixture.test/page/items?page=2&per_page=25","position":2,"seen":[],"received":25}	25
pages	2	563a08580bc48860	"01a74039a0c21d91"	Thu, 01 Jan 2026 00:00:00 GMT	{"url":"http://upstream.fixture.test/page/items?page=3&per_page=25","position":3,"seen":[],"received":50}	25
pages	3	45b6dc6fe1c62705	"0e8f875341fbe7f6"	Thu, 01 Jan 2026 00:00:00 GMT	\N	10
cursors	1	9e2a085ec3a8be29	"c180d871f3fd00fd"	Thu, 01 Jan 2026 00:00:00 GMT	{"url":"http://upstream.fixture.test/cursor/listed?limit=10&key=${sealed|${FIXTURE_TOKEN}|0}&cursor=c10","position":0,"seen":["c10","http://upstream.fixture.test/cursor/listed?limit=10&key=${sealed|${FIXTURE_TOKEN}|0}"],"received":10}	10
cursors	2	1226d6fb491c3a92	"b8906d1127873b8c"	Thu, 01 Jan 2026 00:00:00 GMT	{"url":"http://upstream.fixture.test/cursor/listed?limit=10&key=${sealed|${FIXTURE_TOKEN}|0}&cursor=c20","position":0,"seen":["c20","http://upstream.fixture.test/cursor/listed?limit=10&key=${sealed|${FIXTURE_TOKEN}|0}&cursor=c10"],"received":20}	10
cursors	3	1b3d3ffb4e60ec87	"a65d6b880b5b2b6b"	Thu, 01 Jan 2026 00:00:00 GMT	\N	10
me	1	2ed7949cbadb1a88	"46010d4033fabf2d"	Thu, 01 Jan 2026 00:00:00 GMT	\N	1
\.


--
-- Data for Name: records; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.records (resource, key, data, updated_at, page) FROM stdin;
inventory	doc-0001	{"id": "doc-0001", "doc": {"id": 1, "_id": "doc-0001", "_rev": "1-4580c018183134a88a431381810c0854", "name": "Item 1", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item1@example.com", "score": 7, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "1-g1AAAAczFpMQ", "changes": [{"rev": "1-4580c018183134a88a431381810c0854"}]}	2026-12-07 08:42:06.645+00	\N
inventory	doc-0002	{"id": "doc-0002", "doc": {"id": 2, "_id": "doc-0002", "_rev": "1-6086471827ca6a8dd8a6ac7281746806", "name": "Item 2", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item2@example.com", "score": 14, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "2-g1AAAAczJpMg", "changes": [{"rev": "1-6086471827ca6a8dd8a6ac7281746806"}]}	2026-12-07 08:42:06.645+00	\N
inventory	doc-0003	{"id": "doc-0003", "doc": {"id": 3, "_id": "doc-0003", "_rev": "1-57178e18223abad22daba32281e87175", "name": "Item 3", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item3@example.com", "score": 21, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "3-g1AAAAczNpMw", "changes": [{"rev": "1-57178e18223abad22daba32281e87175"}]}	2026-12-07 08:42:06.645+00	\N
inventory	doc-0004	{"id": "doc-0004", "doc": {"id": 4, "_id": "doc-0004", "_rev": "1-2bc13d1809acc82ff28cca9081d31cb2", "name": "Item 4", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item4@example.com", "score": 28, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "4-g1AAAAczRpNA", "changes": [{"rev": "1-2bc13d1809acc82ff28cca9081d31cb2"}]}	2026-12-07 08:42:06.645+00	\N
inventory	doc-0005	{"id": "doc-0005", "doc": {"id": 5, "_id": "doc-0005", "_rev": "1-232c241804d6191441916d408142c232", "name": "Item 5", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item5@example.com", "score": 35, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "5-g1AAAAczVpNQ", "changes": [{"rev": "1-232c241804d6191441916d408142c232"}]}	2026-12-07 08:42:06.645+00	\N
inventory	doc-0006	{"id": "doc-0006", "doc": {"id": 6, "_id": "doc-0006", "_rev": "1-3dc50b18141320399302314181b05cd3", "name": "Item 6", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item6@example.com", "score": 42, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "6-g1AAAAczZpNg", "changes": [{"rev": "1-3dc50b18141320399302314181b05cd3"}]}	2026-12-07 08:42:06.645+00	\N
inventory	doc-0007	{"id": "doc-0007", "doc": {"id": 7, "_id": "doc-0007", "_rev": "1-352ff2180f3c711ee117c3f0812ff253", "name": "Item 7", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item7@example.com", "score": 49, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "7-g1AAAAczdpNw", "changes": [{"rev": "1-352ff2180f3c711ee117c3f0812ff253"}]}	2026-12-07 08:42:06.645+00	\N
inventory	doc-0008	{"id": "doc-0008", "doc": {"id": 8, "_id": "doc-0008", "_rev": "1-94713118452e32cbbc23e25481131749", "name": "Item 8", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item8@example.com", "score": 56, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "8-g1AAAAczhpOA", "changes": [{"rev": "1-94713118452e32cbbc23e25481131749"}]}	2026-12-07 08:42:06.645+00	\N
inventory	doc-0009	{"id": "doc-0009", "doc": {"id": 9, "_id": "doc-0009", "_rev": "1-8bdc7818405826d00d6285048187cdb8", "name": "Item 9", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item9@example.com", "score": 63, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "9-g1AAAAczlpOQ", "changes": [{"rev": "1-8bdc7818405826d00d6285048187cdb8"}]}	2026-12-07 08:42:06.645+00	\N
inventory	doc-0010	{"id": "doc-0010", "doc": {"id": 10, "_id": "doc-0010", "_rev": "1-0d63d2f0f8744c0000c4478f0f2d36d0", "name": "Item 10", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item10@example.com", "score": 70, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "10-g1AAAAczEwaTEw", "changes": [{"rev": "1-0d63d2f0f8744c0000c4478f0f2d36d0"}]}	2026-12-07 08:42:06.645+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000001	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000001", "mail": "user1@contoso.com", "surname": "1", "jobTitle": null, "givenName": "User", "displayName": "User 1", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user1@contoso.com"}	2026-12-07 08:42:06.646+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000002	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000002", "mail": "user2@contoso.com", "surname": "2", "jobTitle": null, "givenName": "User", "displayName": "User 2", "mobilePhone": null, "businessPhones": ["+1 425 555 1002"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user2@contoso.com"}	2026-12-07 08:42:06.646+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000003	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000003", "mail": "user3@contoso.com", "surname": "3", "jobTitle": null, "givenName": "User", "displayName": "User 3", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user3@contoso.com"}	2026-12-07 08:42:06.646+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000004	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000004", "mail": "user4@contoso.com", "surname": "4", "jobTitle": null, "givenName": "User", "displayName": "User 4", "mobilePhone": null, "businessPhones": ["+1 425 555 1004"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user4@contoso.com"}	2026-12-07 08:42:06.646+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000005	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000005", "mail": "user5@contoso.com", "surname": "5", "jobTitle": null, "givenName": "User", "displayName": "User 5", "mobilePhone": null, "businessPhones": [], "officeLocation": "5/5", "preferredLanguage": "en-US", "userPrincipalName": "user5@contoso.com"}	2026-12-07 08:42:06.646+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000006	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000006", "mail": "user6@contoso.com", "surname": "6", "jobTitle": null, "givenName": "User", "displayName": "User 6", "mobilePhone": null, "businessPhones": ["+1 425 555 1006"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user6@contoso.com"}	2026-12-07 08:42:06.646+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000007	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000007", "mail": "user7@contoso.com", "surname": "7", "jobTitle": null, "givenName": "User", "displayName": "User 7", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user7@contoso.com"}	2026-12-07 08:42:06.646+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000008	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000008", "mail": "user8@contoso.com", "surname": "8", "jobTitle": null, "givenName": "User", "displayName": "User 8", "mobilePhone": null, "businessPhones": ["+1 425 555 1008"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user8@contoso.com"}	2026-12-07 08:42:06.646+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000009	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000009", "mail": "user9@contoso.com", "surname": "9", "jobTitle": null, "givenName": "User", "displayName": "User 9", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user9@contoso.com"}	2026-12-07 08:42:06.646+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000a	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-00000000000a", "mail": "user10@contoso.com", "surname": "10", "jobTitle": null, "givenName": "User", "displayName": "User 10", "mobilePhone": null, "businessPhones": ["+1 425 555 1010"], "officeLocation": "10/3", "preferredLanguage": "en-US", "userPrincipalName": "user10@contoso.com"}	2026-12-07 08:42:06.646+00	\N
links	1	{"id": 1, "name": "Item 1", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item1@example.com", "score": 7, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	1
links	2	{"id": 2, "name": "Item 2", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item2@example.com", "score": 14, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	1
links	3	{"id": 3, "name": "Item 3", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item3@example.com", "score": 21, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	1
links	4	{"id": 4, "name": "Item 4", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item4@example.com", "score": 28, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	1
links	5	{"id": 5, "name": "Item 5", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item5@example.com", "score": 35, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	1
links	6	{"id": 6, "name": "Item 6", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item6@example.com", "score": 42, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	1
links	7	{"id": 7, "name": "Item 7", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item7@example.com", "score": 49, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	1
links	8	{"id": 8, "name": "Item 8", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item8@example.com", "score": 56, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	1
links	9	{"id": 9, "name": "Item 9", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item9@example.com", "score": 63, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	1
links	10	{"id": 10, "name": "Item 10", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item10@example.com", "score": 70, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	1
links	11	{"id": 11, "name": "Item 11", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item11@example.com", "score": 77, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	2
links	12	{"id": 12, "name": "Item 12", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item12@example.com", "score": 84, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	2
links	13	{"id": 13, "name": "Item 13", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item13@example.com", "score": 91, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	2
links	14	{"id": 14, "name": "Item 14", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item14@example.com", "score": 98, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	2
links	15	{"id": 15, "name": "Item 15", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item15@example.com", "score": 5, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	2
links	16	{"id": 16, "name": "Item 16", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item16@example.com", "score": 12, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	2
links	17	{"id": 17, "name": "Item 17", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item17@example.com", "score": 19, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	2
links	18	{"id": 18, "name": "Item 18", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item18@example.com", "score": 26, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	2
links	19	{"id": 19, "name": "Item 19", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item19@example.com", "score": 33, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	2
links	20	{"id": 20, "name": "Item 20", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item20@example.com", "score": 40, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	2
links	21	{"id": 21, "name": "Item 21", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item21@example.com", "score": 47, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	3
links	22	{"id": 22, "name": "Item 22", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item22@example.com", "score": 54, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	3
links	23	{"id": 23, "name": "Item 23", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item23@example.com", "score": 61, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	3
links	24	{"id": 24, "name": "Item 24", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item24@example.com", "score": 68, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	3
links	25	{"id": 25, "name": "Item 25", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item25@example.com", "score": 75, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	3
links	26	{"id": 26, "name": "Item 26", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item26@example.com", "score": 82, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	3
links	27	{"id": 27, "name": "Item 27", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item27@example.com", "score": 89, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	3
links	28	{"id": 28, "name": "Item 28", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item28@example.com", "score": 96, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	3
links	29	{"id": 29, "name": "Item 29", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item29@example.com", "score": 3, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	3
links	30	{"id": 30, "name": "Item 30", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item30@example.com", "score": 10, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.652+00	3
pages	1	{"id": 1, "name": "Item 1", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item1@example.com", "score": 7, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	2	{"id": 2, "name": "Item 2", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item2@example.com", "score": 14, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	3	{"id": 3, "name": "Item 3", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item3@example.com", "score": 21, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	4	{"id": 4, "name": "Item 4", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item4@example.com", "score": 28, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	5	{"id": 5, "name": "Item 5", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item5@example.com", "score": 35, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	6	{"id": 6, "name": "Item 6", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item6@example.com", "score": 42, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	7	{"id": 7, "name": "Item 7", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item7@example.com", "score": 49, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	8	{"id": 8, "name": "Item 8", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item8@example.com", "score": 56, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	9	{"id": 9, "name": "Item 9", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item9@example.com", "score": 63, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	10	{"id": 10, "name": "Item 10", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item10@example.com", "score": 70, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	11	{"id": 11, "name": "Item 11", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item11@example.com", "score": 77, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	12	{"id": 12, "name": "Item 12", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item12@example.com", "score": 84, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	13	{"id": 13, "name": "Item 13", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item13@example.com", "score": 91, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	14	{"id": 14, "name": "Item 14", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item14@example.com", "score": 98, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	15	{"id": 15, "name": "Item 15", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item15@example.com", "score": 5, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	16	{"id": 16, "name": "Item 16", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item16@example.com", "score": 12, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	17	{"id": 17, "name": "Item 17", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item17@example.com", "score": 19, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	18	{"id": 18, "name": "Item 18", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item18@example.com", "score": 26, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	19	{"id": 19, "name": "Item 19", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item19@example.com", "score": 33, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	20	{"id": 20, "name": "Item 20", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item20@example.com", "score": 40, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	21	{"id": 21, "name": "Item 21", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item21@example.com", "score": 47, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	22	{"id": 22, "name": "Item 22", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item22@example.com", "score": 54, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	23	{"id": 23, "name": "Item 23", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item23@example.com", "score": 61, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	24	{"id": 24, "name": "Item 24", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item24@example.com", "score": 68, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	25	{"id": 25, "name": "Item 25", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item25@example.com", "score": 75, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	1
pages	26	{"id": 26, "name": "Item 26", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item26@example.com", "score": 82, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	27	{"id": 27, "name": "Item 27", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item27@example.com", "score": 89, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	28	{"id": 28, "name": "Item 28", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item28@example.com", "score": 96, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	29	{"id": 29, "name": "Item 29", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item29@example.com", "score": 3, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	30	{"id": 30, "name": "Item 30", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item30@example.com", "score": 10, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	31	{"id": 31, "name": "Item 31", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item31@example.com", "score": 17, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	32	{"id": 32, "name": "Item 32", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item32@example.com", "score": 24, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	33	{"id": 33, "name": "Item 33", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item33@example.com", "score": 31, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	34	{"id": 34, "name": "Item 34", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item34@example.com", "score": 38, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	35	{"id": 35, "name": "Item 35", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item35@example.com", "score": 45, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	36	{"id": 36, "name": "Item 36", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item36@example.com", "score": 52, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	37	{"id": 37, "name": "Item 37", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item37@example.com", "score": 59, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	38	{"id": 38, "name": "Item 38", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item38@example.com", "score": 66, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	39	{"id": 39, "name": "Item 39", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item39@example.com", "score": 73, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	40	{"id": 40, "name": "Item 40", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item40@example.com", "score": 80, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	41	{"id": 41, "name": "Item 41", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item41@example.com", "score": 87, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	42	{"id": 42, "name": "Item 42", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item42@example.com", "score": 94, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	43	{"id": 43, "name": "Item 43", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item43@example.com", "score": 1, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	44	{"id": 44, "name": "Item 44", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item44@example.com", "score": 8, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	45	{"id": 45, "name": "Item 45", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item45@example.com", "score": 15, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	46	{"id": 46, "name": "Item 46", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item46@example.com", "score": 22, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	47	{"id": 47, "name": "Item 47", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item47@example.com", "score": 29, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	48	{"id": 48, "name": "Item 48", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item48@example.com", "score": 36, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	49	{"id": 49, "name": "Item 49", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item49@example.com", "score": 43, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	50	{"id": 50, "name": "Item 50", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item50@example.com", "score": 50, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	2
pages	51	{"id": 51, "name": "Item 51", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item51@example.com", "score": 57, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	3
pages	52	{"id": 52, "name": "Item 52", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item52@example.com", "score": 64, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	3
pages	53	{"id": 53, "name": "Item 53", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item53@example.com", "score": 71, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	3
pages	54	{"id": 54, "name": "Item 54", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item54@example.com", "score": 78, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	3
pages	55	{"id": 55, "name": "Item 55", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item55@example.com", "score": 85, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	3
pages	56	{"id": 56, "name": "Item 56", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item56@example.com", "score": 92, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	3
pages	57	{"id": 57, "name": "Item 57", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item57@example.com", "score": 99, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	3
pages	58	{"id": 58, "name": "Item 58", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item58@example.com", "score": 6, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	3
pages	59	{"id": 59, "name": "Item 59", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item59@example.com", "score": 13, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	3
pages	60	{"id": 60, "name": "Item 60", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item60@example.com", "score": 20, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.669+00	3
cursors	1	{"id": 1, "name": "Item 1", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item1@example.com", "score": 7, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	1
cursors	2	{"id": 2, "name": "Item 2", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item2@example.com", "score": 14, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	1
cursors	3	{"id": 3, "name": "Item 3", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item3@example.com", "score": 21, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	1
cursors	4	{"id": 4, "name": "Item 4", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item4@example.com", "score": 28, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	1
cursors	5	{"id": 5, "name": "Item 5", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item5@example.com", "score": 35, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	1
cursors	6	{"id": 6, "name": "Item 6", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item6@example.com", "score": 42, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	1
cursors	7	{"id": 7, "name": "Item 7", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item7@example.com", "score": 49, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	1
cursors	8	{"id": 8, "name": "Item 8", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item8@example.com", "score": 56, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	1
cursors	9	{"id": 9, "name": "Item 9", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item9@example.com", "score": 63, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	1
cursors	10	{"id": 10, "name": "Item 10", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item10@example.com", "score": 70, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	1
cursors	11	{"id": 11, "name": "Item 11", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item11@example.com", "score": 77, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	2
cursors	12	{"id": 12, "name": "Item 12", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item12@example.com", "score": 84, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	2
cursors	13	{"id": 13, "name": "Item 13", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item13@example.com", "score": 91, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	2
cursors	14	{"id": 14, "name": "Item 14", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item14@example.com", "score": 98, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	2
cursors	15	{"id": 15, "name": "Item 15", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item15@example.com", "score": 5, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	2
cursors	16	{"id": 16, "name": "Item 16", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item16@example.com", "score": 12, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	2
cursors	17	{"id": 17, "name": "Item 17", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item17@example.com", "score": 19, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	2
cursors	18	{"id": 18, "name": "Item 18", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item18@example.com", "score": 26, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	2
cursors	19	{"id": 19, "name": "Item 19", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item19@example.com", "score": 33, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	2
cursors	20	{"id": 20, "name": "Item 20", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item20@example.com", "score": 40, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	2
cursors	21	{"id": 21, "name": "Item 21", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item21@example.com", "score": 47, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	3
cursors	22	{"id": 22, "name": "Item 22", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item22@example.com", "score": 54, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	3
cursors	23	{"id": 23, "name": "Item 23", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item23@example.com", "score": 61, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	3
cursors	24	{"id": 24, "name": "Item 24", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item24@example.com", "score": 68, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	3
cursors	25	{"id": 25, "name": "Item 25", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item25@example.com", "score": 75, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	3
cursors	26	{"id": 26, "name": "Item 26", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item26@example.com", "score": 82, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	3
cursors	27	{"id": 27, "name": "Item 27", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item27@example.com", "score": 89, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	3
cursors	28	{"id": 28, "name": "Item 28", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item28@example.com", "score": 96, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	3
cursors	29	{"id": 29, "name": "Item 29", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item29@example.com", "score": 3, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	3
cursors	30	{"id": 30, "name": "Item 30", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item30@example.com", "score": 10, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.672+00	3
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000015	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000015", "mail": "user21@contoso.com", "surname": "21", "jobTitle": null, "givenName": "User", "displayName": "User 21", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user21@contoso.com"}	2026-12-07 08:42:06.86+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000016	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000016", "mail": "user22@contoso.com", "surname": "22", "jobTitle": null, "givenName": "User", "displayName": "User 22", "mobilePhone": null, "businessPhones": ["+1 425 555 1022"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user22@contoso.com"}	2026-12-07 08:42:06.86+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000017	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000017", "mail": "user23@contoso.com", "surname": "23", "jobTitle": null, "givenName": "User", "displayName": "User 23", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user23@contoso.com"}	2026-12-07 08:42:06.86+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000018	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000018", "mail": "user24@contoso.com", "surname": "24", "jobTitle": null, "givenName": "User", "displayName": "User 24", "mobilePhone": null, "businessPhones": ["+1 425 555 1024"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user24@contoso.com"}	2026-12-07 08:42:06.86+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000019	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000019", "mail": "user25@contoso.com", "surname": "25", "jobTitle": null, "givenName": "User", "displayName": "User 25", "mobilePhone": null, "businessPhones": [], "officeLocation": "25/4", "preferredLanguage": "en-US", "userPrincipalName": "user25@contoso.com"}	2026-12-07 08:42:06.86+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-00000000001a	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-00000000001a", "mail": "user26@contoso.com", "surname": "26", "jobTitle": null, "givenName": "User", "displayName": "User 26", "mobilePhone": null, "businessPhones": ["+1 425 555 1026"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user26@contoso.com"}	2026-12-07 08:42:06.86+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-00000000001b	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-00000000001b", "mail": "user27@contoso.com", "surname": "27", "jobTitle": null, "givenName": "User", "displayName": "User 27", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user27@contoso.com"}	2026-12-07 08:42:06.86+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-00000000001c	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-00000000001c", "mail": "user28@contoso.com", "surname": "28", "jobTitle": null, "givenName": "User", "displayName": "User 28", "mobilePhone": null, "businessPhones": ["+1 425 555 1028"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user28@contoso.com"}	2026-12-07 08:42:06.86+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-00000000001d	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-00000000001d", "mail": "user29@contoso.com", "surname": "29", "jobTitle": null, "givenName": "User", "displayName": "User 29", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user29@contoso.com"}	2026-12-07 08:42:06.86+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-00000000001e	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-00000000001e", "mail": "user30@contoso.com", "surname": "30", "jobTitle": null, "givenName": "User", "displayName": "User 30", "mobilePhone": null, "businessPhones": ["+1 425 555 1030"], "officeLocation": "30/2", "preferredLanguage": "en-US", "userPrincipalName": "user30@contoso.com"}	2026-12-07 08:42:06.86+00	\N
inventory	doc-0011	{"id": "doc-0011", "doc": {"id": 11, "_id": "doc-0011", "_rev": "1-16d28bf0fe03fbbbbbbf30ef0fb82d61", "name": "Item 11", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item11@example.com", "score": 77, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "11-g1AAAAczExaTEx", "changes": [{"rev": "1-16d28bf0fe03fbbbbbbf30ef0fb82d61"}]}	2026-12-07 08:42:06.692+00	\N
inventory	doc-0012	{"id": "doc-0012", "doc": {"id": 12, "_id": "doc-0012", "_rev": "1-1f67c0f102dada6aa6adad201f0c76f1", "name": "Item 12", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item12@example.com", "score": 84, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "12-g1AAAAczEyaTEy", "changes": [{"rev": "1-1f67c0f102dada6aa6adad201f0c76f1"}]}	2026-12-07 08:42:06.692+00	\N
inventory	doc-0013	{"id": "doc-0013", "doc": {"id": 13, "_id": "doc-0013", "_rev": "1-272359f106f8bf4554fb8f601f953272", "name": "Item 13", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item13@example.com", "score": 91, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "13-g1AAAAczEzaTEz", "changes": [{"rev": "1-272359f106f8bf4554fb8f601f953272"}]}	2026-12-07 08:42:06.692+00	\N
inventory	doc-0014	{"id": "doc-0014", "doc": {"id": 14, "_id": "doc-0014", "_rev": "1-eb7c36f0e576024cc420675e0f63c7be", "name": "Item 14", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item14@example.com", "score": 98, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "14-g1AAAAczE0aTE0", "changes": [{"rev": "1-eb7c36f0e576024cc420675e0f63c7be"}]}	2026-12-07 08:42:06.692+00	\N
inventory	doc-0015	{"id": "doc-0015", "doc": {"id": 15, "_id": "doc-0015", "_rev": "1-f4116ff0ea4ce7c77c7ec4ae0ff6114f", "name": "Item 15", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item15@example.com", "score": 5, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "15-g1AAAAczE1aTE1", "changes": [{"rev": "1-f4116ff0ea4ce7c77c7ec4ae0ff6114f"}]}	2026-12-07 08:42:06.692+00	\N
inventory	doc-0016	{"id": "doc-0016", "doc": {"id": 16, "_id": "doc-0016", "_rev": "1-fbcd04f0ee6ac5d66d5ca6ee0f40dcbf", "name": "Item 16", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item16@example.com", "score": 12, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "16-g1AAAAczE2aTE2", "changes": [{"rev": "1-fbcd04f0ee6ac5d66d5ca6ee0f40dcbf"}]}	2026-12-07 08:42:06.692+00	\N
inventory	doc-0017	{"id": "doc-0017", "doc": {"id": 17, "_id": "doc-0017", "_rev": "1-04cebdf0f39da3b11b3ad93f0fdbec40", "name": "Item 17", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item17@example.com", "score": 19, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "17-g1AAAAczE3aTE3", "changes": [{"rev": "1-04cebdf0f39da3b11b3ad93f0fdbec40"}]}	2026-12-07 08:42:06.692+00	\N
inventory	doc-0018	{"id": "doc-0018", "doc": {"id": 18, "_id": "doc-0018", "_rev": "1-c8bb1af0d1beee5885eeeb1d0fa1bb8c", "name": "Item 18", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item18@example.com", "score": 26, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "18-g1AAAAczE4aTE4", "changes": [{"rev": "1-c8bb1af0d1beee5885eeeb1d0fa1bb8c"}]}	2026-12-07 08:42:06.692+00	\N
inventory	doc-0019	{"id": "doc-0019", "doc": {"id": 19, "_id": "doc-0019", "_rev": "1-d076b3f0d5dcd333333dcd5d0f3b670d", "name": "Item 19", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item19@example.com", "score": 33, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "19-g1AAAAczE5aTE5", "changes": [{"rev": "1-d076b3f0d5dcd333333dcd5d0f3b670d"}]}	2026-12-07 08:42:06.692+00	\N
inventory	doc-0020	{"id": "doc-0020", "doc": {"id": 20, "_id": "doc-0020", "_rev": "1-1841950b358ee153351ee853b0591481", "name": "Item 20", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item20@example.com", "score": 40, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "20-g1AAAAczIwaTIw", "changes": [{"rev": "1-1841950b358ee153351ee853b0591481"}]}	2026-12-07 08:42:06.692+00	\N
journal	5	{"id": 5, "name": "Item 5", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item5@example.com", "score": 35, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 2, "updated_at": "2026-01-12T13:46:45Z"}	2026-12-07 08:42:07.205+00	\N
journal	6	{"id": 6, "name": "Item 6", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item6@example.com", "score": 42, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 2, "updated_at": "2026-01-12T13:46:46Z"}	2026-12-07 08:42:07.205+00	\N
journal	7	{"id": 7, "name": "Item 7", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item7@example.com", "score": 49, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 2, "updated_at": "2026-01-12T13:46:47Z"}	2026-12-07 08:42:07.205+00	\N
journal	10	{"id": 10, "name": "Item 10", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item10@example.com", "score": 70, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:10Z"}	2026-12-07 08:42:06.816+00	\N
me	1	{"id": 1, "name": "Item 1", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item1@example.com", "score": 7, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}	2026-12-07 08:42:06.686+00	1
journal	11	{"id": 11, "name": "Item 11", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item11@example.com", "score": 77, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:11Z"}	2026-12-07 08:42:06.841+00	\N
journal	12	{"id": 12, "name": "Item 12", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item12@example.com", "score": 84, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:12Z"}	2026-12-07 08:42:06.841+00	\N
journal	13	{"id": 13, "name": "Item 13", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item13@example.com", "score": 91, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:13Z"}	2026-12-07 08:42:06.841+00	\N
journal	14	{"id": 14, "name": "Item 14", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item14@example.com", "score": 98, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:14Z"}	2026-12-07 08:42:06.841+00	\N
journal	15	{"id": 15, "name": "Item 15", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item15@example.com", "score": 5, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:15Z"}	2026-12-07 08:42:06.841+00	\N
events	21	{"id": 21, "name": "Item 21", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item21@example.com", "score": 47, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:21Z"}	2026-12-07 08:42:06.946+00	\N
events	22	{"id": 22, "name": "Item 22", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item22@example.com", "score": 54, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:22Z"}	2026-12-07 08:42:06.946+00	\N
events	23	{"id": 23, "name": "Item 23", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item23@example.com", "score": 61, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:23Z"}	2026-12-07 08:42:06.946+00	\N
events	24	{"id": 24, "name": "Item 24", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item24@example.com", "score": 68, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:24Z"}	2026-12-07 08:42:06.946+00	\N
events	25	{"id": 25, "name": "Item 25", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item25@example.com", "score": 75, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:25Z"}	2026-12-07 08:42:06.946+00	\N
events	26	{"id": 26, "name": "Item 26", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item26@example.com", "score": 82, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:26Z"}	2026-12-07 08:42:06.946+00	\N
events	27	{"id": 27, "name": "Item 27", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item27@example.com", "score": 89, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:27Z"}	2026-12-07 08:42:06.946+00	\N
events	28	{"id": 28, "name": "Item 28", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item28@example.com", "score": 96, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:28Z"}	2026-12-07 08:42:06.946+00	\N
events	29	{"id": 29, "name": "Item 29", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item29@example.com", "score": 3, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:29Z"}	2026-12-07 08:42:06.946+00	\N
events	30	{"id": 30, "name": "Item 30", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item30@example.com", "score": 10, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:30Z"}	2026-12-07 08:42:06.946+00	\N
journal	8	{"id": 8, "name": "Item 8", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item8@example.com", "score": 56, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 2, "updated_at": "2026-01-12T13:46:48Z"}	2026-12-07 08:42:07.205+00	\N
journal	9	{"id": 9, "name": "Item 9", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item9@example.com", "score": 63, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 2, "updated_at": "2026-01-12T13:46:49Z"}	2026-12-07 08:42:07.205+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000b	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-00000000000b", "mail": "user11@contoso.com", "surname": "11", "jobTitle": null, "givenName": "User", "displayName": "User 11", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user11@contoso.com"}	2026-12-07 08:42:06.739+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000c	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-00000000000c", "mail": "user12@contoso.com", "surname": "12", "jobTitle": null, "givenName": "User", "displayName": "User 12", "mobilePhone": null, "businessPhones": ["+1 425 555 1012"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user12@contoso.com"}	2026-12-07 08:42:06.739+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000d	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-00000000000d", "mail": "user13@contoso.com", "surname": "13", "jobTitle": null, "givenName": "User", "displayName": "User 13", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user13@contoso.com"}	2026-12-07 08:42:06.739+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000e	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-00000000000e", "mail": "user14@contoso.com", "surname": "14", "jobTitle": null, "givenName": "User", "displayName": "User 14", "mobilePhone": null, "businessPhones": ["+1 425 555 1014"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user14@contoso.com"}	2026-12-07 08:42:06.739+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-00000000000f	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-00000000000f", "mail": "user15@contoso.com", "surname": "15", "jobTitle": null, "givenName": "User", "displayName": "User 15", "mobilePhone": null, "businessPhones": [], "officeLocation": "15/1", "preferredLanguage": "en-US", "userPrincipalName": "user15@contoso.com"}	2026-12-07 08:42:06.739+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000010	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000010", "mail": "user16@contoso.com", "surname": "16", "jobTitle": null, "givenName": "User", "displayName": "User 16", "mobilePhone": null, "businessPhones": ["+1 425 555 1016"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user16@contoso.com"}	2026-12-07 08:42:06.739+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000011	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000011", "mail": "user17@contoso.com", "surname": "17", "jobTitle": null, "givenName": "User", "displayName": "User 17", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user17@contoso.com"}	2026-12-07 08:42:06.739+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000012	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000012", "mail": "user18@contoso.com", "surname": "18", "jobTitle": null, "givenName": "User", "displayName": "User 18", "mobilePhone": null, "businessPhones": ["+1 425 555 1018"], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user18@contoso.com"}	2026-12-07 08:42:06.739+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000013	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000013", "mail": "user19@contoso.com", "surname": "19", "jobTitle": null, "givenName": "User", "displayName": "User 19", "mobilePhone": null, "businessPhones": [], "officeLocation": null, "preferredLanguage": "en-US", "userPrincipalName": "user19@contoso.com"}	2026-12-07 08:42:06.739+00	\N
users	6e3b2f1a-0c4d-4e5f-8a9b-000000000014	{"id": "6e3b2f1a-0c4d-4e5f-8a9b-000000000014", "mail": "user20@contoso.com", "surname": "20", "jobTitle": null, "givenName": "User", "displayName": "User 20", "mobilePhone": null, "businessPhones": ["+1 425 555 1020"], "officeLocation": "20/6", "preferredLanguage": "en-US", "userPrincipalName": "user20@contoso.com"}	2026-12-07 08:42:06.739+00	\N
events	1	{"id": 1, "name": "Item 1", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item1@example.com", "score": 7, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:01Z"}	2026-12-07 08:42:06.658+00	\N
events	2	{"id": 2, "name": "Item 2", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item2@example.com", "score": 14, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:02Z"}	2026-12-07 08:42:06.658+00	\N
events	3	{"id": 3, "name": "Item 3", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item3@example.com", "score": 21, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:03Z"}	2026-12-07 08:42:06.658+00	\N
events	4	{"id": 4, "name": "Item 4", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item4@example.com", "score": 28, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:04Z"}	2026-12-07 08:42:06.658+00	\N
events	5	{"id": 5, "name": "Item 5", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item5@example.com", "score": 35, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:05Z"}	2026-12-07 08:42:06.658+00	\N
events	6	{"id": 6, "name": "Item 6", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item6@example.com", "score": 42, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:06Z"}	2026-12-07 08:42:06.658+00	\N
events	7	{"id": 7, "name": "Item 7", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item7@example.com", "score": 49, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:07Z"}	2026-12-07 08:42:06.658+00	\N
events	8	{"id": 8, "name": "Item 8", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item8@example.com", "score": 56, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:08Z"}	2026-12-07 08:42:06.658+00	\N
events	9	{"id": 9, "name": "Item 9", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item9@example.com", "score": 63, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:09Z"}	2026-12-07 08:42:06.658+00	\N
events	10	{"id": 10, "name": "Item 10", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item10@example.com", "score": 70, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:10Z"}	2026-12-07 08:42:06.658+00	\N
inventory	doc-0021	{"id": "doc-0021", "doc": {"id": 21, "_id": "doc-0021", "_rev": "1-0ed2fc0b2fff67f88f76fff2b0cf2de0", "name": "Item 21", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item21@example.com", "score": 47, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "21-g1AAAAczIxaTIx", "changes": [{"rev": "1-0ed2fc0b2fff67f88f76fff2b0cf2de0"}]}	2026-12-07 08:42:06.805+00	\N
inventory	doc-0022	{"id": "doc-0022", "doc": {"id": 22, "_id": "doc-0022", "_rev": "1-29d8830b3f989dddddd989f3b0388d92", "name": "Item 22", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item22@example.com", "score": 54, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "22-g1AAAAczIyaTIy", "changes": [{"rev": "1-29d8830b3f989dddddd989f3b0388d92"}]}	2026-12-07 08:42:06.805+00	\N
inventory	doc-0023	{"id": "doc-0023", "doc": {"id": 23, "_id": "doc-0023", "_rev": "1-21434a0b3ac1b862268b1ca3b0a43412", "name": "Item 23", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item23@example.com", "score": 61, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "23-g1AAAAczIzaTIz", "changes": [{"rev": "1-21434a0b3ac1b862268b1ca3b0a43412"}]}	2026-12-07 08:42:06.805+00	\N
inventory	doc-0024	{"id": "doc-0024", "doc": {"id": 24, "_id": "doc-0024", "_rev": "1-f5ecf90b2233c5bffb5c3322b09fce5f", "name": "Item 24", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item24@example.com", "score": 68, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "24-g1AAAAczI0aTI0", "changes": [{"rev": "1-f5ecf90b2233c5bffb5c3322b09fce5f"}]}	2026-12-07 08:42:06.805+00	\N
inventory	doc-0025	{"id": "doc-0025", "doc": {"id": 25, "_id": "doc-0025", "_rev": "1-ec7e600b1ca44c6446c44ac1b006e7ce", "name": "Item 25", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item25@example.com", "score": 75, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "25-g1AAAAczI1aTI1", "changes": [{"rev": "1-ec7e600b1ca44c6446c44ac1b006e7ce"}]}	2026-12-07 08:42:06.805+00	\N
inventory	doc-0026	{"id": "doc-0026", "doc": {"id": 26, "_id": "doc-0026", "_rev": "1-063dc70b2b288949949882b2b07cd360", "name": "Item 26", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item26@example.com", "score": 82, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "26-g1AAAAczI2aTI2", "changes": [{"rev": "1-063dc70b2b288949949882b2b07cd360"}]}	2026-12-07 08:42:06.805+00	\N
inventory	doc-0027	{"id": "doc-0027", "doc": {"id": 27, "_id": "doc-0027", "_rev": "1-fe822e0b270aa46ee64aa072b0e228ef", "name": "Item 27", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item27@example.com", "score": 89, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "27-g1AAAAczI3aTI3", "changes": [{"rev": "1-fe822e0b270aa46ee64aa072b0e228ef"}]}	2026-12-07 08:42:06.805+00	\N
inventory	doc-0028	{"id": "doc-0028", "doc": {"id": 28, "_id": "doc-0028", "_rev": "1-5cea6d0b5c44755bb55744c5b0d6aec5", "name": "Item 28", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item28@example.com", "score": 96, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "28-g1AAAAczI4aTI4", "changes": [{"rev": "1-5cea6d0b5c44755bb55744c5b0d6aec5"}]}	2026-12-07 08:42:06.805+00	\N
inventory	doc-0029	{"id": "doc-0029", "doc": {"id": 29, "_id": "doc-0029", "_rev": "1-552eb40b58265a2002a56285b04be255", "name": "Item 29", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item29@example.com", "score": 3, "active": true, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "29-g1AAAAczI5aTI5", "changes": [{"rev": "1-552eb40b58265a2002a56285b04be255"}]}	2026-12-07 08:42:06.805+00	\N
inventory	doc-0030	{"id": "doc-0030", "doc": {"id": 30, "_id": "doc-0030", "_rev": "1-6354b302428d44deed44d824203b4536", "name": "Item 30", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item30@example.com", "score": 10, "active": false, "created": "2026-01-01T00:00:00Z", "revision": 1}, "seq": "30-g1AAAAczMwaTMw", "changes": [{"rev": "1-6354b302428d44deed44d824203b4536"}]}	2026-12-07 08:42:06.805+00	\N
journal	16	{"id": 16, "name": "Item 16", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item16@example.com", "score": 12, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:16Z"}	2026-12-07 08:42:06.929+00	\N
journal	17	{"id": 17, "name": "Item 17", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item17@example.com", "score": 19, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:17Z"}	2026-12-07 08:42:06.929+00	\N
journal	18	{"id": 18, "name": "Item 18", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item18@example.com", "score": 26, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:18Z"}	2026-12-07 08:42:06.929+00	\N
journal	19	{"id": 19, "name": "Item 19", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item19@example.com", "score": 33, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:19Z"}	2026-12-07 08:42:06.929+00	\N
journal	20	{"id": 20, "name": "Item 20", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item20@example.com", "score": 40, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:20Z"}	2026-12-07 08:42:06.929+00	\N
journal	21	{"id": 21, "name": "Item 21", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item21@example.com", "score": 47, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:21Z"}	2026-12-07 08:42:06.962+00	\N
journal	22	{"id": 22, "name": "Item 22", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item22@example.com", "score": 54, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:22Z"}	2026-12-07 08:42:06.962+00	\N
events	11	{"id": 11, "name": "Item 11", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item11@example.com", "score": 77, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:11Z"}	2026-12-07 08:42:06.879+00	\N
events	12	{"id": 12, "name": "Item 12", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item12@example.com", "score": 84, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:12Z"}	2026-12-07 08:42:06.879+00	\N
events	13	{"id": 13, "name": "Item 13", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item13@example.com", "score": 91, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:13Z"}	2026-12-07 08:42:06.879+00	\N
events	14	{"id": 14, "name": "Item 14", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item14@example.com", "score": 98, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:14Z"}	2026-12-07 08:42:06.879+00	\N
events	15	{"id": 15, "name": "Item 15", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item15@example.com", "score": 5, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:15Z"}	2026-12-07 08:42:06.879+00	\N
events	16	{"id": 16, "name": "Item 16", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item16@example.com", "score": 12, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:16Z"}	2026-12-07 08:42:06.879+00	\N
events	17	{"id": 17, "name": "Item 17", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item17@example.com", "score": 19, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:17Z"}	2026-12-07 08:42:06.879+00	\N
events	18	{"id": 18, "name": "Item 18", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item18@example.com", "score": 26, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:18Z"}	2026-12-07 08:42:06.879+00	\N
events	19	{"id": 19, "name": "Item 19", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item19@example.com", "score": 33, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:19Z"}	2026-12-07 08:42:06.879+00	\N
events	20	{"id": 20, "name": "Item 20", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item20@example.com", "score": 40, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:20Z"}	2026-12-07 08:42:06.879+00	\N
journal	23	{"id": 23, "name": "Item 23", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item23@example.com", "score": 61, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:23Z"}	2026-12-07 08:42:06.962+00	\N
journal	24	{"id": 24, "name": "Item 24", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item24@example.com", "score": 68, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:24Z"}	2026-12-07 08:42:06.962+00	\N
journal	25	{"id": 25, "name": "Item 25", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item25@example.com", "score": 75, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:25Z"}	2026-12-07 08:42:06.962+00	\N
journal	26	{"id": 26, "name": "Item 26", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item26@example.com", "score": 82, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:26Z"}	2026-12-07 08:42:06.996+00	\N
journal	27	{"id": 27, "name": "Item 27", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item27@example.com", "score": 89, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:27Z"}	2026-12-07 08:42:06.996+00	\N
journal	28	{"id": 28, "name": "Item 28", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item28@example.com", "score": 96, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:28Z"}	2026-12-07 08:42:06.996+00	\N
journal	29	{"id": 29, "name": "Item 29", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item29@example.com", "score": 3, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:29Z"}	2026-12-07 08:42:06.996+00	\N
journal	30	{"id": 30, "name": "Item 30", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item30@example.com", "score": 10, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:30Z"}	2026-12-07 08:42:06.996+00	\N
journal	31	{"id": 31, "name": "Item 31", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item31@example.com", "score": 17, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:31Z"}	2026-12-07 08:42:07.011+00	\N
journal	32	{"id": 32, "name": "Item 32", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item32@example.com", "score": 24, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:32Z"}	2026-12-07 08:42:07.011+00	\N
journal	33	{"id": 33, "name": "Item 33", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item33@example.com", "score": 31, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:33Z"}	2026-12-07 08:42:07.011+00	\N
journal	34	{"id": 34, "name": "Item 34", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item34@example.com", "score": 38, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:34Z"}	2026-12-07 08:42:07.011+00	\N
journal	35	{"id": 35, "name": "Item 35", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item35@example.com", "score": 45, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:35Z"}	2026-12-07 08:42:07.011+00	\N
journal	36	{"id": 36, "name": "Item 36", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item36@example.com", "score": 52, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:36Z"}	2026-12-07 08:42:07.022+00	\N
journal	37	{"id": 37, "name": "Item 37", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item37@example.com", "score": 59, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:37Z"}	2026-12-07 08:42:07.022+00	\N
journal	38	{"id": 38, "name": "Item 38", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item38@example.com", "score": 66, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:38Z"}	2026-12-07 08:42:07.022+00	\N
journal	39	{"id": 39, "name": "Item 39", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item39@example.com", "score": 73, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:39Z"}	2026-12-07 08:42:07.022+00	\N
journal	40	{"id": 40, "name": "Item 40", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item40@example.com", "score": 80, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:40Z"}	2026-12-07 08:42:07.022+00	\N
mine	1	{"id": 1, "name": "Item 1", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item1@example.com", "score": 7, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:01Z"}	2026-12-07 08:42:07.049+00	\N
mine	2	{"id": 2, "name": "Item 2", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item2@example.com", "score": 14, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:02Z"}	2026-12-07 08:42:07.049+00	\N
mine	3	{"id": 3, "name": "Item 3", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item3@example.com", "score": 21, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:03Z"}	2026-12-07 08:42:07.049+00	\N
mine	4	{"id": 4, "name": "Item 4", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item4@example.com", "score": 28, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:04Z"}	2026-12-07 08:42:07.049+00	\N
mine	5	{"id": 5, "name": "Item 5", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item5@example.com", "score": 35, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:05Z"}	2026-12-07 08:42:07.049+00	\N
mine	6	{"id": 6, "name": "Item 6", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item6@example.com", "score": 42, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:06Z"}	2026-12-07 08:42:07.049+00	\N
mine	7	{"id": 7, "name": "Item 7", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item7@example.com", "score": 49, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:07Z"}	2026-12-07 08:42:07.049+00	\N
mine	8	{"id": 8, "name": "Item 8", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item8@example.com", "score": 56, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:08Z"}	2026-12-07 08:42:07.049+00	\N
mine	9	{"id": 9, "name": "Item 9", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item9@example.com", "score": 63, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:09Z"}	2026-12-07 08:42:07.049+00	\N
mine	10	{"id": 10, "name": "Item 10", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item10@example.com", "score": 70, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:10Z"}	2026-12-07 08:42:07.049+00	\N
mine	11	{"id": 11, "name": "Item 11", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item11@example.com", "score": 77, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:11Z"}	2026-12-07 08:42:07.071+00	\N
mine	12	{"id": 12, "name": "Item 12", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item12@example.com", "score": 84, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:12Z"}	2026-12-07 08:42:07.071+00	\N
mine	13	{"id": 13, "name": "Item 13", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item13@example.com", "score": 91, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:13Z"}	2026-12-07 08:42:07.071+00	\N
mine	14	{"id": 14, "name": "Item 14", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item14@example.com", "score": 98, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:14Z"}	2026-12-07 08:42:07.071+00	\N
mine	15	{"id": 15, "name": "Item 15", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item15@example.com", "score": 5, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:15Z"}	2026-12-07 08:42:07.071+00	\N
mine	16	{"id": 16, "name": "Item 16", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item16@example.com", "score": 12, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:16Z"}	2026-12-07 08:42:07.071+00	\N
mine	17	{"id": 17, "name": "Item 17", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item17@example.com", "score": 19, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:17Z"}	2026-12-07 08:42:07.071+00	\N
mine	18	{"id": 18, "name": "Item 18", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item18@example.com", "score": 26, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:18Z"}	2026-12-07 08:42:07.071+00	\N
mine	19	{"id": 19, "name": "Item 19", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item19@example.com", "score": 33, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:19Z"}	2026-12-07 08:42:07.071+00	\N
mine	20	{"id": 20, "name": "Item 20", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item20@example.com", "score": 40, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 1, "updated_at": "2026-01-01T00:00:20Z"}	2026-12-07 08:42:07.071+00	\N
journal	1	{"id": 1, "name": "Item 1", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item1@example.com", "score": 7, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 2, "updated_at": "2026-01-12T13:46:41Z"}	2026-12-07 08:42:07.187+00	\N
journal	2	{"id": 2, "name": "Item 2", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item2@example.com", "score": 14, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 2, "updated_at": "2026-01-12T13:46:42Z"}	2026-12-07 08:42:07.187+00	\N
journal	3	{"id": 3, "name": "Item 3", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item3@example.com", "score": 21, "active": false, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 2, "updated_at": "2026-01-12T13:46:43Z"}	2026-12-07 08:42:07.187+00	\N
journal	4	{"id": 4, "name": "Item 4", "note": "The quick brown fox jumps over the lazy dog.", "tags": ["alpha", "beta", "gamma"], "email": "item4@example.com", "score": 28, "active": true, "status": "open", "created": "2026-01-01T00:00:00Z", "revision": 2, "updated_at": "2026-01-12T13:46:44Z"}	2026-12-07 08:42:07.187+00	\N
\.


--
-- Data for Name: resources; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.resources (name, state, last_success_at, last_attempt_at, last_error, etag, last_modified, item_count, last_error_kind, last_error_status, validators_scope, since, since_token) FROM stdin;
links	idle	2026-12-07 08:42:06.752+00	2026-12-07 08:42:06.562+00	\N	"f64c5ceddd153c51"	Thu, 01 Jan 2026 00:00:00 GMT	30	\N	\N	ba8d392c2595c0fc	\N	\N
pages	idle	2026-12-07 08:42:06.77+00	2026-12-07 08:42:06.561+00	\N	"49a5abe41991b7a1"	Thu, 01 Jan 2026 00:00:00 GMT	60	\N	\N	e17eee2c5b299cfb	\N	\N
cursors	idle	2026-12-07 08:42:06.785+00	2026-12-07 08:42:06.562+00	\N	"c180d871f3fd00fd"	Thu, 01 Jan 2026 00:00:00 GMT	30	\N	\N	431e6ff61e3568c3	\N	\N
me	idle	2026-12-07 08:42:06.843+00	2026-12-07 08:42:06.563+00	\N	"46010d4033fabf2d"	Thu, 01 Jan 2026 00:00:00 GMT	1	\N	\N	78c9a1136099bf5e	\N	\N
users	idle	2026-12-07 08:42:06.897+00	2026-12-07 08:42:06.563+00	\N	"8ad561f1f82357f5"	Thu, 01 Jan 2026 00:00:00 GMT	30	\N	\N	a7269864e52feaf7	\N	http://upstream.fixture.test/v1.0/users/…
inventory	idle	2026-12-07 08:42:06.92+00	2026-12-07 08:42:06.563+00	\N	"24f9db9c5163a74f"	Thu, 01 Jan 2026 00:00:00 GMT	30	\N	\N	dea7e16176bae08c	\N	30-g1AAAAczMwaTMw
events	idle	2026-12-07 08:42:06.983+00	2026-12-07 08:42:06.562+00	\N	"82e39c9060d6da0b"	Thu, 01 Jan 2026 00:00:00 GMT	30	\N	\N	565e19883ba7d160	2026-01-01 00:00:30+00	\N
mine	idle	2026-12-07 08:42:07.092+00	2026-12-07 08:42:07.039+00	\N	"82e39c9060d6da0b"	Thu, 01 Jan 2026 00:00:00 GMT	20	\N	\N	4526df20fe5f9007	2026-01-01 00:00:20+00	\N
journal	failed	2026-12-07 08:42:07.037+00	2026-12-07 08:42:07.177+00	journal: GET http://upstream.fixture.test/incremental/journal?updated_since=2026-01-01T00%3A00%3A40Z&page=3&per_page=5 failed: the server answered 500 Internal Server Error: injected fault	"2d10e129fb5953fc"	Thu, 01 Jan 2026 00:00:00 GMT	40	transient	500	aac42ee4981491c2	2026-01-01 00:00:40+00	\N
\.


--
-- Data for Name: snapshots; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.snapshots (id, resource, began_at) FROM stdin;
\.


--
-- Data for Name: staging; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.staging (snapshot, key, data, page) FROM stdin;
\.


--
-- Data for Name: sync_runs; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.sync_runs (id, resource, trigger, started_at, finished_at, outcome, attempts, pages, items, bytes, wire_bytes, error, error_kind, error_status, added, changed, removed, since, agent, since_token) FROM stdin;
3	links	refresh	2026-12-07 08:42:06.562+00	2026-12-07 08:42:06.752+00	success	1	3	30	6373	6373	\N	\N	\N	30	0	0	\N	vm:25684:a369	\N
4	pages	refresh	2026-12-07 08:42:06.561+00	2026-12-07 08:42:06.77+00	success	1	3	60	12899	12899	\N	\N	\N	60	0	0	\N	vm:25684:a369	\N
5	cursors	refresh	2026-12-07 08:42:06.562+00	2026-12-07 08:42:06.785+00	success	1	3	30	6462	6462	\N	\N	\N	30	0	0	\N	vm:25684:a369	\N
8	me	refresh	2026-12-07 08:42:06.563+00	2026-12-07 08:42:06.843+00	success	1	1	1	208	208	\N	\N	\N	1	0	0	\N	vm:25684:a369	\N
2	users	refresh	2026-12-07 08:42:06.563+00	2026-12-07 08:42:06.897+00	success	1	3	30	9192	9192	\N	\N	\N	30	0	0	\N	vm:25684:a369	http://upstream.fixture.test/v1.0/users/…
1	inventory	refresh	2026-12-07 08:42:06.563+00	2026-12-07 08:42:06.92+00	success	1	3	30	11553	11553	\N	\N	\N	30	0	0	\N	vm:25684:a369	30-g1AAAAczMwaTMw
6	events	refresh	2026-12-07 08:42:06.562+00	2026-12-07 08:42:06.983+00	success	1	4	30	8063	8063	\N	\N	\N	30	0	0	2026-01-01 00:00:30+00	vm:25684:a369	\N
7	journal	refresh	2026-12-07 08:42:06.563+00	2026-12-07 08:42:07.037+00	success	1	9	40	10872	10872	\N	\N	\N	40	0	0	2026-01-01 00:00:40+00	vm:25684:a369	\N
9	mine	refresh	2026-12-07 08:42:07.039+00	2026-12-07 08:42:07.092+00	success	1	3	20	5377	5377	\N	\N	\N	20	0	0	2026-01-01 00:00:20+00	vm:25684:a369	\N
10	journal	refresh	2026-12-07 08:42:07.177+00	2026-12-07 08:42:07.216+00	gaveUp	1	2	10	2689	2689	journal: GET http://upstream.fixture.test/incremental/journal?updated_since=2026-01-01T00%3A00%3A40Z&page=3&per_page=5 failed: the server answered 500 Internal Server Error: injected fault	transient	500	0	9	0	\N	vm:25731:404	\N
\.


--
-- Data for Name: typed_tables; Type: TABLE DATA; Schema: copy; Owner: -
--

COPY copy.typed_tables (resource, declaration, built_at, misfit_table, misfit_column, misfit_key, misfit_pointer) FROM stdin;
\.


--
-- Name: snapshots_id_seq; Type: SEQUENCE SET; Schema: copy; Owner: -
--

SELECT pg_catalog.setval('copy.snapshots_id_seq', 4, true);


--
-- Name: sync_runs_id_seq; Type: SEQUENCE SET; Schema: copy; Owner: -
--

SELECT pg_catalog.setval('copy.sync_runs_id_seq', 10, true);


--
-- Name: agents agents_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.agents
    ADD CONSTRAINT agents_pkey PRIMARY KEY (id);


--
-- Name: changes changes_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.changes
    ADD CONSTRAINT changes_pkey PRIMARY KEY (seq);


--
-- Name: cursors cursors_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.cursors
    ADD CONSTRAINT cursors_pkey PRIMARY KEY (resource, scope);


--
-- Name: feed_state feed_state_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.feed_state
    ADD CONSTRAINT feed_state_pkey PRIMARY KEY (only_row);


--
-- Name: leases leases_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.leases
    ADD CONSTRAINT leases_pkey PRIMARY KEY (resource);


--
-- Name: migrations migrations_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.migrations
    ADD CONSTRAINT migrations_pkey PRIMARY KEY (id);


--
-- Name: oauth2_refresh_tokens oauth2_refresh_tokens_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.oauth2_refresh_tokens
    ADD CONSTRAINT oauth2_refresh_tokens_pkey PRIMARY KEY (auth);


--
-- Name: pages pages_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.pages
    ADD CONSTRAINT pages_pkey PRIMARY KEY (resource, number);


--
-- Name: records records_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.records
    ADD CONSTRAINT records_pkey PRIMARY KEY (resource, key);


--
-- Name: resources resources_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.resources
    ADD CONSTRAINT resources_pkey PRIMARY KEY (name);


--
-- Name: snapshots snapshots_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.snapshots
    ADD CONSTRAINT snapshots_pkey PRIMARY KEY (id);


--
-- Name: staging staging_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.staging
    ADD CONSTRAINT staging_pkey PRIMARY KEY (snapshot, key);


--
-- Name: sync_runs sync_runs_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.sync_runs
    ADD CONSTRAINT sync_runs_pkey PRIMARY KEY (id);


--
-- Name: typed_tables typed_tables_pkey; Type: CONSTRAINT; Schema: copy; Owner: -
--

ALTER TABLE ONLY copy.typed_tables
    ADD CONSTRAINT typed_tables_pkey PRIMARY KEY (resource);


--
-- Name: changes_by_resource; Type: INDEX; Schema: copy; Owner: -
--

CREATE INDEX changes_by_resource ON copy.changes USING btree (resource, seq);


--
-- Name: records_by_update; Type: INDEX; Schema: copy; Owner: -
--

CREATE INDEX records_by_update ON copy.records USING btree (resource, updated_at);


--
-- Name: sync_runs_by_resource; Type: INDEX; Schema: copy; Owner: -
--

CREATE INDEX sync_runs_by_resource ON copy.sync_runs USING btree (resource, id);


--
-- Name: sync_runs_running; Type: INDEX; Schema: copy; Owner: -
--

CREATE INDEX sync_runs_running ON copy.sync_runs USING btree (resource) WHERE (outcome IS NULL);


--
-- PostgreSQL database dump complete
--

\unrestrict n4Pz8K1VH1vup2xiQ1NigHDZAfUlm7aUzBTeOpqvV3ADTG19sw6LOHhfwPeX2DY

