import { allPrinciples } from "@/lib/constitution/overlay";
import { OVERLAYS_DIR, withFile, type ConstitutionFile } from "@/lib/constitution";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { log } from "@/lib/log";
import { SYSTEM_ACTOR, type Actor } from "./audit";
import { memo } from "./change-bus";
import { db } from "./client";
import {
  HEAD_ID,
  meta,
  parsed,
  toVersion,
  type Version,
  type VersionMeta,
} from "./constitution-rows";
import { ConstitutionInvalidError, saveVersion } from "./constitution-save";
import { headFileWrites } from "./head-file-writes";
import { contentHash, StoredVersionInvalidError } from "./version-parse";

export type { Version, VersionMeta };
export { ConstitutionInvalidError };
export { contentHash, StoredVersionInvalidError };

/**
 * The version in force, kept in memory until a save is announced on the change bus (the
 * saving instance takes it at commit, the others on the notification; while the bus
 * cannot vouch for its caches, every call reads the head). Should the head no longer
 * validate (the engine's rules changed since it was saved), the newest earlier version
 * that does is served instead, so the app keeps its last good constitution. Any other
 * failure (the database is down or busy) is thrown: an older version is never served
 * because of a fault.
 */
const head = memo("constitution-head", ["constitution"], async (): Promise<Version | null> => {
  const row = await db().constitutionHead.findUnique({ where: { id: HEAD_ID } });
  if (!row) return null;
  const cached = parsed.get(row.versionId);
  if (cached) return cached;
  const candidates = await db().constitutionVersion.findMany({
    where: { id: { lte: row.versionId } },
    orderBy: { id: "desc" },
    select: { id: true },
  });
  for (const { id } of candidates) {
    try {
      return await constitutionVersions.get(id);
    } catch (error) {
      if (!(error instanceof StoredVersionInvalidError)) throw error;
      log.error(`constitution version ${id} cannot be served; trying the one before`, error);
    }
  }
  return null;
});

/**
 * Constitution versions: immutable, content-hashed, audited. A save names the
 * version it was based on; if another save landed since, it is refused with a
 * conflict instead of overwriting. Invalid constitutions are never stored.
 */
export const constitutionVersions = {
  /** The version in force (see `head`), null before the first import. */
  current(): Promise<Version | null> {
    return head.get();
  },

  async get(id: number): Promise<Version> {
    const row = await db().constitutionVersion.findUnique({ where: { id } });
    if (!row) throw new NotFoundError(`No constitution version ${id}.`);
    return toVersion(row);
  },

  async list(options: { limit?: number } = {}): Promise<(VersionMeta & { current: boolean })[]> {
    const [rows, head] = await Promise.all([
      db().constitutionVersion.findMany({
        orderBy: { id: "desc" },
        take: Math.min(options.limit ?? 100, 500),
        select: {
          id: true,
          contentHash: true,
          authorLabel: true,
          message: true,
          parentId: true,
          createdAt: true,
        },
      }),
      db().constitutionHead.findUnique({ where: { id: HEAD_ID } }),
    ]);
    return rows.map((r) => ({ ...meta(r), current: r.id === head?.versionId }));
  },

  /**
   * Saves a whole file set as the next version; `baseVersionId` null only for the very first version.
   * `file` names the one file a change replaced, for the audit row. On the embedded database
   * the head file follows (lib/db/head-file-writes.ts) before this returns.
   */
  save(...args: Parameters<typeof saveVersion>): Promise<VersionMeta> {
    return headFileWrites.changing(() => saveVersion(...args));
  },

  /**
   * Replaces one file of the base version (`core.yaml`, `overlays/<domain>.yaml`; a `.yml`
   * twin of it is dropped) and saves the result through `save`, so the whole constitution
   * is validated and a stale base is a conflict.
   */
  async saveFile(
    input: { path: string; text: string; baseVersionId: number; message: string; action: string },
    actor: Actor,
  ): Promise<VersionMeta> {
    if (!input.path.endsWith(".yaml"))
      throw new ValidationError(`Save ${input.path} as a .yaml file.`);
    const base = await this.get(input.baseVersionId);
    return this.save(
      {
        files: withFile(base.files, input.path, input.text),
        baseVersionId: input.baseVersionId,
        message: input.message,
        action: input.action,
        file: input.path,
      },
      actor,
    );
  },

  /** Replaces one overlay's file in the base version and saves the result. */
  async saveOverlay(
    input: { domain: string; text: string; baseVersionId: number; message: string },
    actor: Actor,
  ): Promise<VersionMeta> {
    return this.saveFile(
      {
        path: `${OVERLAYS_DIR}/${input.domain}.yaml`,
        text: input.text,
        baseVersionId: input.baseVersionId,
        message: input.message,
        action: "constitution.save_overlay",
      },
      actor,
    );
  },

  /** Makes an earlier version current again, as a new version (history is never rewritten). */
  async rollback(
    input: { toVersionId: number; baseVersionId: number; message?: string },
    actor: Actor,
  ): Promise<VersionMeta> {
    const target = await this.get(input.toVersionId);
    return this.save(
      {
        files: target.files,
        baseVersionId: input.baseVersionId,
        message: input.message?.trim() || `Roll back to version ${target.id}`,
        action: "constitution.rollback",
      },
      actor,
    );
  },

  /** Principle titles by id from the version in force (empty when there is none yet). */
  async titles(): Promise<Map<string, string>> {
    const version = await this.current();
    return new Map(version ? allPrinciples(version.constitution).map((p) => [p.id, p.title]) : []);
  },

  /** On an empty database, stores the given files as version 1. Returns the version, or null when versions exist. */
  async importIfEmpty(
    files: ConstitutionFile[],
    message: string,
    actor: Actor = SYSTEM_ACTOR,
  ): Promise<VersionMeta | null> {
    if (await db().constitutionHead.findUnique({ where: { id: HEAD_ID } })) return null;
    try {
      return await this.save(
        { files, baseVersionId: null, message, action: "constitution.import" },
        actor,
      );
    } catch (error) {
      // Two processes starting at once: the other one imported first.
      if (error instanceof ConflictError) return null;
      throw error;
    }
  },
} as const;
