import { readFileSync, readdirSync } from "node:fs";
import { parseDocument, LineCounter } from "yaml";
for (const name of readdirSync("lib/constitution/fixtures/malformed").filter(n=>n.includes("yaml-"))) {
  const text = readFileSync(`lib/constitution/fixtures/malformed/${name}`,"utf8");
  const lc = new LineCounter();
  const d = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false });
  const d2 = parseDocument(text, { uniqueKeys: true });
  console.log(name, d.errors.map(e => [e.code, e.pos, lc.linePos(e.pos[0]), e.linePos]), d2.errors.map(e=>e.linePos?.[0]));
}
