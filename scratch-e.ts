import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { LexicalIndex, storeConfig } from "@/lib/constitution";
const r = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
if (!r.ok) throw 1;
const idx = new LexicalIndex(r.constitution);
const rows = parse(readFileSync("constitution/eval/prompts.yaml","utf8")) as {prompt:string,domain:string}[];
const cfg = storeConfig();
let a=0,b=0; const miss: string[] = [];
for (const row of rows) {
  const raw = idx.detectDomains(row.prompt,{max:3,minConfidence:0}).map(h=>h.domain);
  const st = idx.detectDomains(row.prompt,{max:3,minConfidence:cfg.lexical_min_confidence, relativeCutoff: cfg.lexical_relative_cutoff}).map(h=>h.domain);
  if (raw.includes(row.domain)) a++; else miss.push(`${row.domain}: ${row.prompt} -> ${raw}`);
  if (st.includes(row.domain)) b++;
}
console.log(rows.length, a/rows.length, b/rows.length); console.log(miss.join("\n"));
// not-for probe
for (const p of ["I have a health question about my headache", "is this a medical emergency, chest pain", "my kid has a fever"]) console.log(p, idx.detectDomains(p,{max:3,minConfidence:0}).map(h=>[h.domain,h.confidence,h.penalized_by.join("/")]));
