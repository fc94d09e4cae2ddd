import { readFileSync, readdirSync } from "node:fs";
import { parseConstitution, formatIssue } from "@/lib/constitution";
const B = "lib/constitution/fixtures/base";
const base = [{path:"core.yaml", text: readFileSync(`${B}/core.yaml`,"utf8")}, ...["legal","medical"].map(d=>({path:`overlays/${d}.yaml`, text: readFileSync(`${B}/overlays/${d}.yaml`,"utf8")}))];
console.log("base", JSON.stringify(parseConstitution(base)).slice(0,100));
for (const name of readdirSync("lib/constitution/fixtures/malformed").sort()) {
  const text = readFileSync(`lib/constitution/fixtures/malformed/${name}`,"utf8");
  const segs = name.replace(/\.yaml$/,"").split("--"); segs.pop();
  const path = segs.join("/") + ".yaml";
  const remove = [...text.matchAll(/^# remove: (\S+)$/gm)].map(m=>m[1]);
  const files = [...base.filter(f=>f.path!==path && !remove.includes(f.path)), {path, text}];
  const r = parseConstitution(files);
  console.log(`\n${name}\n  ${text.split("\n")[0]}`);
  if (r.ok) console.log("  OK!!"); else for (const i of r.issues) console.log("  -> " + formatIssue(i));
}
