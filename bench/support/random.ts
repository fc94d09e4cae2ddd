/** The seeded generator benches share with the demo (lib/random.ts). */
export { random } from "@/lib/random";
