export * from "./schema";
export * from "./read";
export * from "./reward";
