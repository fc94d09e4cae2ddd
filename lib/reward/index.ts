export * from "./schema";
export * from "./reward";
export * from "./seed";
