import pkg from "@/package.json" with { type: "json" };

/** Charter's version, from package.json. */
export const VERSION: string = pkg.version;
