// The db project's setup file: runs in each test file's context before the file loads.
import { cloneFileDatabase } from "./db";

await cloneFileDatabase();
