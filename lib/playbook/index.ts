export * from "./schema";
export * from "./names";
export * from "./extraction";
export * from "./load";
export * from "./playbook";
export * from "./reflector-prompt";
