import { readFileSync } from "node:fs";
import { parseConstitution, formatIssue, serializeConstitution } from "@/lib/constitution";
const B = "lib/constitution/fixtures/base";
const core = {path:"core.yaml", text: readFileSync(`${B}/core.yaml`,"utf8")};
const med = readFileSync(`${B}/overlays/medical.yaml`,"utf8");
const show = (label: string, files: {path:string,text:string}[]) => { const r = parseConstitution(files); console.log(label, r.ok ? "OK " + JSON.stringify(Object.keys(r.constitution.overlays)) + JSON.stringify(r.constitution.overlays.medical?.additional_principles.map(p=>p.id)) : r.issues.map(formatIssue)); return r; };
show("yml+yaml", [core, {path:"overlays/medical.yaml", text: med}, {path:"overlays/medical.yml", text: "domain: medical\nadditional_principles:\n  - {id: X.Y.1, level: soft, priority: 50, title: t, rule: r}\n"}]);
show("numeric key", [core, {path:"overlays/medical.yaml", text: med.replace("SOFT.HELPFUL.1: 75", "123: 75")}]);
show("numeric key bad value", [core, {path:"overlays/medical.yaml", text: med.replace("SOFT.HELPFUL.1: 75", "123: 750")}]);
show("same path twice", [core, {path:"overlays/medical.yaml", text: med}, {path:"overlays/medical.yaml", text: med.replace(/MED\./g, "MED2.")}]);
show("missing priority", [{path:"core.yaml", text:"principles:\n  - {id: A.B.1, level: hard, title: t, rule: r}\n"}]);
show("missing level", [{path:"core.yaml", text:"principles:\n  - {id: A.B.1, priority: 90, title: t, rule: r}\n"}]);
show("kw merge", [{path:"core.yaml", text:"principles:\n  - {id: A.B.1, level: hard, priority: 90, title: t, rule: r, keywords: [Bomb, gun], keywords_block: [bomb, Knife, GUN], keywords_style: [knife, rifle]}\n"}]);
const r = show("desc", [{path:"core.yaml", text:"description: Hello  \nprinciples:\n  - {id: A.B.1, level: hard, priority: 90, title: t, rule: r, keywords: ['true', '123', 'null', 'a: b', '- x', '#tag']}\n"}, {path: "overlays/x.yaml", text: "sensitive_risk_floor: 0\nexcluded: true\nadditional_principles: []\n"}]);
if (r.ok) { const s = serializeConstitution(r.constitution); console.log(s); console.log(JSON.stringify(parseConstitution(s)) === JSON.stringify(r)); }
import { isDeepStrictEqual } from "node:util";
if (r.ok) { const back = parseConstitution(serializeConstitution(r.constitution)); console.log("deep", back.ok && isDeepStrictEqual(back.constitution, r.constitution)); }
