// The stock Prisma CLI with the schema-engine stand-in (cli-tests.ts) on a fresh database on
// the PostgreSQL server at 127.0.0.1:5432 (user postgres, no password).

import { randomBytes } from "node:crypto";

import pg from "pg";

import { describeBackend } from "./cli-tests";

const PG_ADMIN = { host: "127.0.0.1", port: 5432, user: "postgres", database: "postgres" };

describeBackend(
  "PostgreSQL",
  async () => {
    const database = `charter_test_se_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client(PG_ADMIN);
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${database}"`);
    } finally {
      await admin.end();
    }
    return {
      env: { DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${database}` },
      async cleanup() {
        const client = new pg.Client(PG_ADMIN);
        await client.connect();
        try {
          await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
        } finally {
          await client.end();
        }
      },
    };
  },
  { offlineDiff: true },
);
