import { parseConstitution, LexicalIndex, formatIssue } from "@/lib/constitution";
const core = {path:"core.yaml", text:"principles:\n  - {id: CORE.X.1, level: hard, priority: 90, title: Safety, rule: Be safe.}\n"};
const mk = (notFor: string) => [core,
 {path:"overlays/chemistry.yaml", text:`description: "Chemistry lab questions about reactions and compounds.${notFor}"\nkeywords: [chemistry, reaction, compound, lab]\nadditional_principles:\n  - {id: CHEM.A.1, level: soft, priority: 60, title: Lab Safety, rule: Mention lab safety.}\n  - {id: CHEM.B.1, level: soft, priority: 50, title: Accurate Chemistry, rule: Be accurate.}\n`},
 {path:"overlays/weapons.yaml", text:`description: Weapons, bombs and explosives.\nkeywords: [explosives, bomb, weapon]\nadditional_principles:\n  - {id: WPN.A.1, level: hard, priority: 95, title: No Weapon Building, rule: Refuse.}\n  - {id: WPN.B.1, level: soft, priority: 50, title: History Is Fine, rule: Allow history.}\n`}];
for (const nf of [""," NOT for: explosives"," NOT for: explosives, weapons, bombs"," NOT for: explosives and any reaction"]) {
  const r = parseConstitution(mk(nf)); if (!r.ok) { console.log(r.issues.map(formatIssue)); continue; }
  const idx = new LexicalIndex(r.constitution);
  for (const p of ["which chemistry reaction makes explosives", "chemistry reaction for explosives weapons bombs", "chemistry reaction"]) console.log(JSON.stringify(nf), p, JSON.stringify(idx.detectDomains(p,{max:5,minConfidence:0}).map(h=>[h.domain,h.score,h.penalized_by])));
}
