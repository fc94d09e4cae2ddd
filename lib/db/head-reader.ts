import type { ConstitutionFile, LearnedModel } from "@/lib/constitution";
import { isEmptyModel } from "@/lib/constitution/learn";
import { isLearned } from "@/lib/files/head-file";
import { parsedSnapshots, type ParsedVersion } from "@/lib/files/parsed-snapshots";
import { APPLIED_MIGRATIONS_SQL, pendingMigrations } from "./migration-state";
import { parseStoredVersion } from "./version-parse";

/**
 * The constitution version in force, parsed, read over one plain `pg` connection: for
 * `charter retrieve`, which answers without loading Prisma's client and query compiler
 * (most of its start-up otherwise). The database digests the stored files itself; a parse
 * already kept under that digest is used without fetching them. Null for what this cannot
 * settle and the full client handles: a pending migration (or a new database), no version
 * yet, a stored version that no longer parses (the full path serves the one before), or
 * any read failure (the full path reports it properly). `required` lists the migrations
 * the database must have. `cacheKey` names the parse in lib/files/parsed-snapshots.ts;
 * `learned` is the version's fit, as the server serves it (none while it has none).
 */
export async function readCurrentVersion(
  url: string,
  required: readonly string[],
): Promise<{
  id: number;
  parsed: ParsedVersion;
  cacheKey: string;
  learned: LearnedModel | undefined;
} | null> {
  // pg asks at load whether it runs in a Cloudflare Worker: it reads `navigator.userAgent`,
  // and where Node has no `navigator` (before Node 21) it builds a `Response`, which loads
  // Node's whole fetch implementation, a tenth of this command's time. Node 21 and later
  // define `navigator` with this very userAgent; giving Node 20 the same answers pg at once.
  if (typeof globalThis.navigator === "undefined") {
    Object.defineProperty(globalThis, "navigator", {
      value: { userAgent: `Node.js/${process.versions.node.split(".")[0]}` },
      configurable: true,
    });
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{
      applied: string[] | null;
      id: number | null;
      digest: string | null;
      model: unknown;
    }>(
      `SELECT (SELECT array_agg(migration_name) FROM (${APPLIED_MIGRATIONS_SQL}) done) AS applied,
              v.id, encode(sha256(convert_to(v.files::text, 'UTF8')), 'hex') AS digest, m.model
         FROM (SELECT 1) one
         LEFT JOIN constitution_head h ON h.id = 1
         LEFT JOIN constitution_version v ON v.id = h.version_id
         LEFT JOIN constitution_model m ON m.version_id = v.id`,
    );
    const row = rows[0];
    if (!row?.id || !row.digest || pendingMigrations(required, row.applied ?? []).length > 0)
      return null;
    const model = row.model ?? null;
    if (!isLearned(model)) return null; // a stored fit of another shape: the full path says why
    const learned = model && !isEmptyModel(model) ? model : undefined;
    const key = `row-${row.digest}`;
    const kept = parsedSnapshots.read(key);
    if (kept) return { id: row.id, parsed: kept, cacheKey: key, learned };
    const stored = await client.query<{ files: ConstitutionFile[] }>(
      "SELECT files FROM constitution_version WHERE id = $1",
      [row.id],
    );
    const files = stored.rows[0]?.files;
    if (!files) return null;
    const parsed = await parseStoredVersion(row.id, files);
    parsedSnapshots.write(key, parsed);
    return { id: row.id, parsed, cacheKey: key, learned };
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}
