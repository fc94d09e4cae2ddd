export * from "./schema";
export * from "./feedback";
export * from "./outcome";
export * from "./tool-success";
export * from "./session-file";
