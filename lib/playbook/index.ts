export * from "./schema";
export * from "./playbook";
export * from "./seed";
