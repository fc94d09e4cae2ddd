export * from "./schema";
export * from "./playbook";
export * from "./seed";
export * from "./reflector-prompt";
