-- A hash chain over the audit log, so that an edit, a deletion or an insertion out
-- of order is detected by `charter audit verify` even when it was made by a role
-- that can bypass the append-only triggers (the table's owner, a superuser).
--
-- Each row carries its place in the chain (seq: 1, 2, 3, ... with no gap), the
-- previous row's hash (64 zeros for the first row) and its own hash: SHA-256, in
-- hex, of audit_log_canonical(...). lib/db/audit.ts computes the same text in
-- TypeScript to verify; the two must change together (as a new version prefix).
--
-- The BEFORE INSERT trigger fills seq, prev_hash, hash and at, whatever the client
-- sent: an advisory lock serializes writers so the chain cannot fork, and the
-- database clock, taken under that lock, keeps `at` in chain order.

-- The text a row's hash is taken over: a version tag, then each field as
-- "<octets>:<value>" (or "~" for NULL) on its own line, so no two rows share one.
CREATE FUNCTION "audit_log_canonical"(
  "seq" BIGINT, "id" BIGINT, "at" TIMESTAMPTZ, "actor_id" TEXT, "actor_label" TEXT, "action" TEXT,
  "object_type" TEXT, "object_id" TEXT, "before" JSONB, "after" JSONB, "prev_hash" TEXT
) RETURNS TEXT AS $$
  SELECT 'charter-audit-v1' || string_agg(E'\n' || CASE WHEN f IS NULL THEN '~' ELSE octet_length(f)::text || ':' || f END, '' ORDER BY n)
  FROM unnest(ARRAY[
    "seq"::text, "id"::text, to_char("at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), "actor_id", "actor_label", "action",
    "object_type", "object_id", "before"::text, "after"::text, "prev_hash"
  ]) WITH ORDINALITY AS t(f, n)
$$ LANGUAGE sql STABLE;

CREATE FUNCTION "audit_log_hash"(
  "seq" BIGINT, "id" BIGINT, "at" TIMESTAMPTZ, "actor_id" TEXT, "actor_label" TEXT, "action" TEXT,
  "object_type" TEXT, "object_id" TEXT, "before" JSONB, "after" JSONB, "prev_hash" TEXT
) RETURNS TEXT AS $$
  SELECT encode(sha256(convert_to("audit_log_canonical"("seq", "id", "at", "actor_id", "actor_label", "action", "object_type", "object_id", "before", "after", "prev_hash"), 'UTF8')), 'hex')
$$ LANGUAGE sql STABLE;

ALTER TABLE "audit_log" ADD COLUMN "seq" BIGINT, ADD COLUMN "prev_hash" TEXT, ADD COLUMN "hash" TEXT;

-- Existing rows are chained in the order they were written: (at, id).
ALTER TABLE "audit_log" DISABLE TRIGGER "audit_log_no_update_delete";
DO $$
DECLARE
  r RECORD;
  n BIGINT := 0;
  prev TEXT := repeat('0', 64);
BEGIN
  FOR r IN SELECT * FROM "audit_log" ORDER BY "at", "id" LOOP
    n := n + 1;
    UPDATE "audit_log"
       SET "seq" = n, "prev_hash" = prev,
           "hash" = "audit_log_hash"(n, r."id", r."at", r."actor_id", r."actor_label", r."action", r."object_type", r."object_id", r."before", r."after", prev)
     WHERE "id" = r."id"
    RETURNING "hash" INTO prev;
  END LOOP;
END $$;
ALTER TABLE "audit_log" ENABLE TRIGGER "audit_log_no_update_delete";

-- The defaults only satisfy NOT NULL for clients that leave the columns out: the trigger overwrites them.
ALTER TABLE "audit_log"
  ALTER COLUMN "seq" SET NOT NULL, ALTER COLUMN "seq" SET DEFAULT 0,
  ALTER COLUMN "prev_hash" SET NOT NULL, ALTER COLUMN "prev_hash" SET DEFAULT '',
  ALTER COLUMN "hash" SET NOT NULL, ALTER COLUMN "hash" SET DEFAULT '';

-- CreateIndex
CREATE UNIQUE INDEX "audit_log_seq_key" ON "audit_log"("seq");

CREATE FUNCTION "audit_log_chain"() RETURNS trigger AS $$
DECLARE
  head RECORD;
BEGIN
  -- One writer at a time extends the chain; the lock is held until the transaction ends.
  PERFORM pg_advisory_xact_lock(7308604897068083200);
  SELECT "seq", "hash", "at" INTO head FROM "audit_log" ORDER BY "seq" DESC LIMIT 1;
  IF FOUND THEN
    NEW."seq" := head."seq" + 1;
    NEW."prev_hash" := head."hash";
    NEW."at" := greatest(clock_timestamp()::timestamptz(3), head."at");
  ELSE
    NEW."seq" := 1;
    NEW."prev_hash" := repeat('0', 64);
    NEW."at" := clock_timestamp()::timestamptz(3);
  END IF;
  NEW."hash" := "audit_log_hash"(NEW."seq", NEW."id", NEW."at", NEW."actor_id", NEW."actor_label", NEW."action", NEW."object_type", NEW."object_id", NEW."before", NEW."after", NEW."prev_hash");
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "audit_log_chain" BEFORE INSERT ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_chain"();
