-- Lets PostgreSQL serve FerretDB v1's equality filters from an index.
--
-- FerretDB v1 (PostgreSQL backend) stores a collection as a table with one
-- jsonb column, `_jsonb`, and turns each index the application declares
-- into a B-tree on expressions such as `(_jsonb -> 'code')`. But it pushes
-- an equality filter down as JSON containment, `_jsonb -> 'code' @> '"X"'`
-- (containment, so that a value also matches inside an array, as in
-- MongoDB), and a B-tree cannot answer `@>`. Every find, even by _id, was a
-- full scan: 25-40 ms among 100,000 documents instead of about 1 ms.
--
-- Here each B-tree FerretDB creates gets a GIN twin on the same
-- expressions (jsonb_path_ops answers `@>`), created by an event trigger in
-- the same transaction as the B-tree, so the twin exists before the first
-- document. Together with plan_cache_mode = force_custom_plan (FerretDB
-- passes the field name as a parameter, `_jsonb -> $1 @> $2`; only a plan
-- made for the actual values matches the index expression) every equality
-- filter on an indexed field becomes an index scan, as it is on MongoDB.
--
-- Development and test infrastructure only; production runs MongoDB.
-- Idempotent: tools/infra/up.sh applies it on every start, to the
-- `ferretdb` database and to template1, so a database made later with
-- createdb (the benchmarks make their own) has the triggers too.

SET client_min_messages = warning;

-- Cluster-wide, so it also holds for databases made later.
ALTER SYSTEM SET plan_cache_mode = force_custom_plan;
-- The planner picks among those twins by the table's statistics, which
-- autovacuum gathers once a table has changed enough, looking every
-- naptime (1 min by default). A collection filled in a burst (a benchmark,
-- a test, a new deployment's first minute) was planned without them: every
-- twin looked equally selective, so a lookup by _id and a lease token
-- ANDed the app-wide appId twin (every row of the app) into its bitmap,
-- 3-40 ms instead of 0.1 ms. Looking every 5 s gives such a table its
-- statistics within seconds; idle, it costs PostgreSQL ~3 ms of CPU a
-- second here (thousands of tables). MongoDB needs no statistics to pick
-- an index.
ALTER SYSTEM SET autovacuum_naptime = '5s';
SELECT pg_reload_conf() \gset

-- The expression FerretDB's filter uses for one B-tree key column, or NULL
-- when it does not push that column down. A top-level field is
-- `_jsonb -> 'f'` in both. FerretDB v1 filters dotted fields (a B-tree
-- column `(_jsonb -> 'a') -> 'b'`) in Go, so those get no twin.
CREATE OR REPLACE FUNCTION public.ris_filter_expression(column_def text)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format('(_jsonb -> %L)', replace(m[1], '''''', ''''))
    FROM regexp_match(column_def, '^\(?_jsonb -> ''((?:[^'']|'''')*)''::text\)?$') AS m
    WHERE m IS NOT NULL
$$;

-- A twin's name: one per table and expression, under PostgreSQL's 63 bytes.
CREATE OR REPLACE FUNCTION public.ris_gin_twin_name(tbl oid, expr text)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT 'ris_gin_' || substr(md5(tbl::regclass::text || expr), 1, 24)
$$;

-- Creates the GIN twins of one B-tree index (one per key column, shared by
-- every B-tree of the table that has that column). Never fails the caller's
-- DDL: a twin is an optimisation, so a problem is only a warning.
CREATE OR REPLACE FUNCTION public.ris_create_gin_twins(btree oid)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tbl oid;
  k int;
  expr text;
BEGIN
  SELECT i.indrelid INTO tbl
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_am am ON am.oid = c.relam
    WHERE i.indexrelid = btree AND am.amname = 'btree'
      AND EXISTS (SELECT 1 FROM pg_attribute a
                  WHERE a.attrelid = i.indrelid AND a.attname = '_jsonb' AND NOT a.attisdropped);
  IF tbl IS NULL THEN
    RETURN;
  END IF;
  FOR k IN 1 .. (SELECT indnkeyatts FROM pg_index WHERE indexrelid = btree) LOOP
    expr := public.ris_filter_expression(pg_get_indexdef(btree, k, true));
    CONTINUE WHEN expr IS NULL;
    BEGIN
      -- fastupdate off: a lookup must not scan a pending list that fills up
      -- under a write burst; each insert pays its index update, as in MongoDB.
      EXECUTE format(
        'CREATE INDEX IF NOT EXISTS %I ON %s USING gin (%s jsonb_path_ops) WITH (fastupdate = off)',
        public.ris_gin_twin_name(tbl, expr), tbl::regclass, expr);
    EXCEPTION WHEN OTHERS THEN
      RAISE WARNING 'GIN twin of % (%): %', btree::regclass, expr, SQLERRM;
    END;
  END LOOP;
END
$$;

-- Drops twins whose expression no B-tree of their table has any more (after
-- FerretDB's dropIndexes); twins go with their table on dropCollection.
CREATE OR REPLACE FUNCTION public.ris_drop_orphan_gin_twins(schema_name text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  twin record;
BEGIN
  FOR twin IN
    SELECT g.indexrelid::regclass AS name
      FROM pg_index g
      JOIN pg_class gc ON gc.oid = g.indexrelid
      JOIN pg_namespace n ON n.oid = gc.relnamespace
      WHERE n.nspname = schema_name AND gc.relname LIKE 'ris\_gin\_%'
        AND gc.relname NOT IN (
          SELECT public.ris_gin_twin_name(b.indrelid,
                   public.ris_filter_expression(pg_get_indexdef(b.indexrelid, k, true)))
            FROM pg_index b
            JOIN pg_class bc ON bc.oid = b.indexrelid
            JOIN pg_am am ON am.oid = bc.relam AND am.amname = 'btree'
            CROSS JOIN LATERAL generate_series(1, b.indnkeyatts) AS k
            WHERE b.indrelid = g.indrelid
              AND public.ris_filter_expression(pg_get_indexdef(b.indexrelid, k, true)) IS NOT NULL)
  LOOP
    EXECUTE format('DROP INDEX IF EXISTS %s', twin.name);
  END LOOP;
END
$$;

CREATE OR REPLACE FUNCTION public.ris_on_create_index()
RETURNS event_trigger LANGUAGE plpgsql AS $$
DECLARE
  cmd record;
BEGIN
  FOR cmd IN SELECT objid FROM pg_event_trigger_ddl_commands() WHERE object_type = 'index' LOOP
    PERFORM public.ris_create_gin_twins(cmd.objid);
  END LOOP;
END
$$;

CREATE OR REPLACE FUNCTION public.ris_on_drop_index()
RETURNS event_trigger LANGUAGE plpgsql AS $$
DECLARE
  dropped record;
BEGIN
  FOR dropped IN
    SELECT DISTINCT schema_name FROM pg_event_trigger_dropped_objects()
      WHERE object_type = 'index' AND NOT object_name LIKE 'ris\_gin\_%' AND schema_name IS NOT NULL
  LOOP
    PERFORM public.ris_drop_orphan_gin_twins(dropped.schema_name);
  END LOOP;
END
$$;

DROP EVENT TRIGGER IF EXISTS ris_gin_twins_on_create;
CREATE EVENT TRIGGER ris_gin_twins_on_create ON ddl_command_end
  WHEN TAG IN ('CREATE INDEX') EXECUTE FUNCTION public.ris_on_create_index();

DROP EVENT TRIGGER IF EXISTS ris_gin_twins_on_drop;
CREATE EVENT TRIGGER ris_gin_twins_on_drop ON sql_drop
  WHEN TAG IN ('DROP INDEX') EXECUTE FUNCTION public.ris_on_drop_index();

-- Twins for the indexes that existed before this file was first applied.
DO $$
BEGIN
  PERFORM public.ris_create_gin_twins(i.indexrelid)
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'public')
      AND c.relname NOT LIKE 'ris\_gin\_%';
END
$$;
