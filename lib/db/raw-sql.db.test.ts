import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestDatabase } from "@/test/db";
import { db } from "./client";

// The hand-written SQL in lib/db is checked against the migrated schema, on PostgreSQL and
// on PGlite: every statement is PREPAREd (parsed and analysed, never run), so a column
// renamed, dropped or retyped under a statement fails here, naming the file and line,
// before any user meets it. Statements are read from the source, so a new one is
// covered without a line of test.

type Statement = { at: string; sql: string; dynamic: boolean };

const DIR = path.join(import.meta.dirname);
const RAW_CALLS = new Set([
  "$queryRaw",
  "$executeRaw",
  "$queryRawUnsafe",
  "$executeRawUnsafe",
  "query",
]);
/** What PREPARE takes; other statements (LOCK, BEGIN, DDL) are checked by running them elsewhere. */
const PREPARABLE = /^\s*(\(?\s*SELECT|INSERT|UPDATE|DELETE|WITH|VALUES)\b/i;

/** Module-level string constants of a file, for the SQL fragments statements splice in. */
function constantsOf(source: ts.SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations)
      if (ts.isIdentifier(d.name) && d.initializer && ts.isStringLiteralLike(d.initializer))
        out.set(d.name.text, d.initializer.text);
  }
  return out;
}

function statementsOf(file: string): Statement[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const constants = constantsOf(source);
  const out: Statement[] = [];
  const visit = (node: ts.Node) => {
    let callee: string | undefined;
    let first: ts.Node | undefined;
    if (ts.isTaggedTemplateExpression(node) && ts.isPropertyAccessExpression(node.tag)) {
      callee = node.tag.name.text;
      first = node.template;
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      callee = node.expression.name.text;
      first = node.arguments[0];
    }
    if (callee && RAW_CALLS.has(callee) && first) {
      const at = `${path.relative(process.cwd(), file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if (ts.isStringLiteralLike(first)) out.push({ at, sql: first.text, dynamic: false });
      else if (ts.isTemplateExpression(first)) {
        // A tagged template's values are parameters; an Unsafe call's spans are SQL text:
        // constants are spliced in, anything else becomes a parameter too.
        let sql = first.head.text;
        let dynamic = false;
        first.templateSpans.forEach((span, i) => {
          const name = ts.isIdentifier(span.expression) ? span.expression.text : undefined;
          const constant = ts.isTaggedTemplateExpression(node)
            ? undefined
            : name && constants.get(name);
          if (constant !== undefined && constant !== "") sql += constant;
          else {
            if (!ts.isTaggedTemplateExpression(node)) dynamic = true;
            sql += `$${i + 1}`;
          }
          sql += span.literal.text;
        });
        out.push({ at, sql, dynamic });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const statements = readdirSync(DIR)
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
  .flatMap((name) => statementsOf(path.join(DIR, name)))
  .filter((s) => PREPARABLE.test(s.sql));

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

/** The SQLSTATE and message of a failed PREPARE, or null when it prepared. */
async function prepare(
  sql: string,
  name: string,
): Promise<{ code: string; message: string } | null> {
  try {
    await db().$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`PREPARE ${name} AS ${sql}`);
      await tx.$executeRawUnsafe(`DEALLOCATE ${name}`);
    });
    return null;
  } catch (error) {
    const message = (error as Error).message;
    const cause = JSON.stringify(error, Object.getOwnPropertyNames(error));
    const code =
      /Code: `([0-9A-Z]{5})`/.exec(message)?.[1] ??
      /"originalCode":"([0-9A-Z]{5})"/.exec(cause)?.[1] ??
      "";
    return { code, message: message.split("\n").slice(-2).join(" ") };
  }
}

describe("lib/db's hand-written SQL matches the schema", () => {
  it("finds the statements it checks in the source", () => {
    expect(statements.length).toBeGreaterThanOrEqual(40);
  });

  it("every statement prepares against the migrated schema", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const [i, s] of statements.entries()) {
      const failed = await prepare(s.sql, `charter_sql_probe_${i}`);
      // 42P18: a parameter's type is not known without its value; names and columns resolved.
      if (!failed || failed.code === "42P18") {
        checked++;
        continue;
      }
      // A statement built from values at run time may not parse with placeholders: skipped, not failed.
      if (s.dynamic && failed.code === "42601") continue;
      failures.push(`${s.at}: ${failed.code} ${failed.message}`);
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(35);
  });
});
