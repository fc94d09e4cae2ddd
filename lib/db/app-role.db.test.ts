import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPgUrl, unique } from "@/test/db";
import { grantAppRole } from "./app-role";
import { auditLog } from "./audit";
import { closeDb, db, switchDatabase } from "./client";

const ownerUrl = testPgUrl();

/** A client connected as `user` to the test database (local connections need no password here). */
async function connectAs(user: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: Object.assign(new URL(ownerUrl!), {
      username: user,
      password: "",
    }).toString(),
  });
  await client.connect();
  return client;
}

describe.skipIf(!ownerUrl)("the app's own PostgreSQL role", () => {
  const role = unique("charter_app").replace(/-/g, "_");
  let owner: pg.Client;
  let app: pg.Client;

  beforeAll(async () => {
    owner = await connectAs(new URL(ownerUrl!).username);
    await owner.query(`CREATE ROLE "${role}" LOGIN`);
    await grantAppRole(ownerUrl!, role);
    app = await connectAs(role);
    await switchDatabase({
      kind: "postgres",
      url: Object.assign(new URL(ownerUrl!), { username: role }).toString(),
    });
  });

  afterAll(async () => {
    await closeDb();
    await app?.end();
    await owner.query(`DROP OWNED BY "${role}"`);
    await owner.query(`DROP ROLE IF EXISTS "${role}"`);
    await owner.end();
  });

  it("writes audit rows through Charter's code path and reads them, chained", async () => {
    const objectId = unique("obj");
    await db().$transaction((tx) =>
      auditLog.append(tx, {
        actor: { id: null, label: "app-role" },
        action: "thing.create",
        objectType: "thing",
        objectId,
        after: { n: 1 },
      }),
    );
    const [entry] = (await auditLog.list({ objectType: "thing" })).filter(
      (e) => e.objectId === objectId,
    );
    expect(entry).toMatchObject({
      actorLabel: "app-role",
      action: "thing.create",
      after: { n: 1 },
    });
    const row = await db().auditLog.findFirstOrThrow({ where: { objectId } });
    expect(row.seq).toBeGreaterThan(0n);
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("still reads and writes the other tables", async () => {
    const email = `${unique("app-role")}@example.com`;
    await db().user.create({
      data: {
        id: unique("u"),
        email,
        name: "App Role",
        emailVerified: false,
        createdAt: new Date(),
        updatedAt: new Date(),
      },
    });
    await db().user.update({ where: { email }, data: { name: "Renamed" } });
    await db().user.delete({ where: { email } });
  });

  it.each([
    ["UPDATE", `UPDATE audit_log SET action = 'forged'`, /permission denied/],
    ["DELETE", `DELETE FROM audit_log`, /permission denied/],
    ["TRUNCATE", `TRUNCATE audit_log`, /permission denied/],
    ["DISABLE TRIGGER", `ALTER TABLE audit_log DISABLE TRIGGER audit_log_chain`, /must be owner/],
    ["DISABLE TRIGGER USER", `ALTER TABLE audit_log DISABLE TRIGGER USER`, /must be owner/],
    ["DROP TRIGGER", `DROP TRIGGER audit_log_no_update_delete ON audit_log`, /must be owner/],
    ["DROP TABLE", `DROP TABLE audit_log`, /must be owner/],
    ["session_replication_role", `SET session_replication_role = replica`, /permission denied/],
    [
      "replace the chain function",
      `CREATE OR REPLACE FUNCTION audit_log_chain() RETURNS trigger AS 'BEGIN RETURN NEW; END' LANGUAGE plpgsql`,
      /must be owner|permission denied/,
    ],
  ])("refuses %s", async (_name, sql, message) => {
    await expect(app.query(sql)).rejects.toThrow(message);
  });

  it("refuses a role that could rewrite the log, or that is not a role name, changing nothing", async () => {
    await expect(grantAppRole(ownerUrl!, new URL(ownerUrl!).username)).rejects.toThrow(
      /superuser|owns audit_log/,
    );
    await expect(grantAppRole(ownerUrl!, `x"; DROP TABLE audit_log; --`)).rejects.toThrow(
      /not a plain PostgreSQL role name/,
    );
    await expect(grantAppRole(ownerUrl!, unique("nobody").replace(/-/g, "_"))).rejects.toThrow(
      /does not exist/,
    );
  });
});
