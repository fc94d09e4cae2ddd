import pg from "pg";
import { ValidationError } from "@/lib/errors";

/** A PostgreSQL role name Charter will quote into GRANT statements: letters, digits, _ and $, not starting with a digit. */
export const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/** The tables the app may only append to and read, whatever else it may do. */
export const APPEND_ONLY_TABLES = ["audit_log"] as const;

/**
 * The statements that give `role` what the app needs and no more: read and write
 * on Charter's tables except INSERT and SELECT only on audit_log and SELECT only on
 * _prisma_migrations; sequences for ids; the same on tables later migrations create.
 * Run by the tables' owner. Not the owner, the role cannot disable a trigger, drop
 * the table or set session_replication_role (that needs a superuser).
 */
export function appRoleStatements(role: string, database: string): string[] {
  const r = `"${role}"`;
  return [
    `GRANT CONNECT ON DATABASE "${database.replace(/"/g, '""')}" TO ${r}`,
    `GRANT USAGE ON SCHEMA public TO ${r}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${r}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${r}`,
    ...APPEND_ONLY_TABLES.flatMap((t) => [
      `REVOKE ALL ON "${t}" FROM ${r}`,
      `GRANT SELECT, INSERT ON "${t}" TO ${r}`,
    ]),
    `REVOKE ALL ON "_prisma_migrations" FROM ${r}`,
    `GRANT SELECT ON "_prisma_migrations" TO ${r}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${r}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO ${r}`,
  ];
}

/**
 * Grants `role` the app's privileges, connected as the tables' owner at `ownerUrl`.
 * Refuses a role that does not exist, is a superuser, or owns audit_log: such a role
 * could rewrite the log whatever it is granted. All statements run in one transaction.
 */
export async function grantAppRole(
  ownerUrl: string,
  role: string,
): Promise<{ statements: string[] }> {
  if (!ROLE_NAME.test(role))
    throw new ValidationError(
      `Role "${role}" is not a plain PostgreSQL role name (letters, digits, _ and $, at most 63).`,
    );
  const client = new pg.Client({ connectionString: ownerUrl, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined);
  await client.connect();
  try {
    const found = await client.query<{
      rolsuper: boolean;
      owns: boolean;
      database: string;
      me: string;
    }>(
      `SELECT r.rolsuper, pg_has_role(r.rolname, t.tableowner, 'USAGE') AS owns, current_database() AS database, current_user AS me
         FROM pg_roles r, pg_tables t WHERE r.rolname = $1 AND t.schemaname = 'public' AND t.tablename = 'audit_log'`,
      [role],
    );
    const row = found.rows[0];
    if (!row) {
      const exists = await client.query(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [role]);
      throw new ValidationError(
        exists.rowCount
          ? `audit_log does not exist yet: run \`charter db migrate\` first.`
          : `Role "${role}" does not exist: create it first (CREATE ROLE "${role}" LOGIN PASSWORD '...').`,
      );
    }
    if (row.rolsuper)
      throw new ValidationError(
        `Role "${role}" is a superuser: it could rewrite the audit log whatever it is granted. Use a plain LOGIN role.`,
      );
    if (row.owns)
      throw new ValidationError(
        `Role "${role}" owns audit_log (or is a member of its owner): the app must connect as another role than the one that runs migrations.`,
      );
    const statements = appRoleStatements(role, row.database);
    await client.query("BEGIN");
    try {
      for (const sql of statements) await client.query(sql);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
    return { statements };
  } finally {
    await client.end().catch(() => undefined);
  }
}
