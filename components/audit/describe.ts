import { formatCount, formatUnit, formatWeighted } from "@/lib/format";

/** What the audit page knows to name an object by: user e-mails and key names by id. */
export type AuditNames = { users: ReadonlyMap<string, string>; keys: ReadonlyMap<string, string> };

/** One changed field of an entry: its dotted path and the value before and after, as text ("—" when absent). */
export type FieldChange = { field: string; before: string; after: string };

/** The object an entry is about, in words, and the dashboard page that shows it (if any). */
export type AuditObject = { kind: string; name: string; href?: string };

const ABSENT = "—";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Fields recorded on a 0..1 scale (a score and its override, a normalized total): three decimals even when whole. */
const UNIT_FIELD = /(^|\.)(value|engine|normalized_total|score|trust|confidence)$/;

/** Fields holding a weighted total or weights: two decimals. */
const WEIGHTED_FIELD = /(^|\.)(weighted_total|weights\.[^.]+)$/;

/** Fields holding a SHA-256 in hex: its first 12 digits are enough to tell versions apart on the page. */
const HASH_FIELD = /(^|\.|_)hash$/;

/** A leaf value as text: numbers in the dashboard's formats (by field when it says the scale), lists joined, anything nested as compact JSON. */
export function valueText(value: unknown, field = ""): string {
  if (value === undefined || value === null) return ABSENT;
  if (typeof value === "number") {
    if (UNIT_FIELD.test(field)) return formatUnit(value);
    if (WEIGHTED_FIELD.test(field)) return formatWeighted(value);
    if (Number.isInteger(value)) return formatCount(value);
    return value >= 0 && value <= 1 ? formatUnit(value) : formatWeighted(value);
  }
  if (typeof value === "string") {
    if (HASH_FIELD.test(field) && /^[0-9a-f]{16,}$/.test(value)) return `${value.slice(0, 12)}…`;
    return value === "" ? '""' : value;
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value))
    return value.length === 0
      ? "none"
      : value.every((v) => !isRecord(v) && !Array.isArray(v))
        ? value.map((v) => valueText(v)).join(", ")
        : JSON.stringify(value);
  return JSON.stringify(value);
}

/** Objects flattened to dotted paths of leaves (arrays are leaves). */
function flatten(
  value: unknown,
  prefix = "",
  into = new Map<string, unknown>(),
): Map<string, unknown> {
  if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0 && prefix) into.set(prefix, value);
    for (const key of keys) flatten(value[key], prefix ? `${prefix}.${key}` : key, into);
  } else if (value !== undefined && value !== null) {
    into.set(prefix || "value", value);
  }
  return into;
}

/**
 * The fields that differ between an entry's before and after, one row each, in the
 * order they first appear; fields equal on both sides are left out. A user id in
 * `ownerId` is shown as the user's e-mail when known.
 */
export function fieldChanges(before: unknown, after: unknown, names?: AuditNames): FieldChange[] {
  const was = flatten(before);
  const now = flatten(after);
  const fields = [...new Set([...was.keys(), ...now.keys()])];
  const text = (field: string, value: unknown) =>
    field.endsWith("ownerId") && typeof value === "string"
      ? (names?.users.get(value) ?? value)
      : valueText(value, field);
  return fields
    .filter((field) => JSON.stringify(was.get(field)) !== JSON.stringify(now.get(field)))
    .map((field) => ({
      field,
      before: text(field, was.get(field)),
      after: text(field, now.get(field)),
    }));
}

function stringField(value: unknown, key: string): string | undefined {
  return isRecord(value) && typeof value[key] === "string" ? value[key] : undefined;
}

/** The constitution file an entry saved, as "overlay medical" or "core"; undefined for whole-constitution saves. */
function constitutionPart(file: string | undefined): string | undefined {
  if (!file) return undefined;
  const overlay = /^overlays\/(.+)\.ya?ml$/.exec(file);
  if (overlay?.[1]) return `overlay ${overlay[1]}`;
  return file === "core.yaml" ? "core" : file;
}

/** Names the object of an audit entry from its type, id and recorded values ("overlay medical", "user alice@…", "key agent-ci"). */
export function auditObject(
  entry: { objectType: string; objectId: string; before: unknown; after: unknown },
  names: AuditNames,
): AuditObject {
  const { objectType: type, objectId: id, after, before } = entry;
  switch (type) {
    case "user":
      return {
        kind: "user",
        name: names.users.get(id) ?? stringField(after, "email") ?? id,
        href: "/users",
      };
    case "api_key":
      return {
        kind: "key",
        name: stringField(after, "name") ?? names.keys.get(id) ?? id,
        href: "/api-keys",
      };
    case "constitution": {
      const part = constitutionPart(stringField(after, "file"));
      const version = `version ${id}`;
      if (part?.startsWith("overlay "))
        return {
          kind: "overlay",
          name: `${part.slice("overlay ".length)} (${version})`,
          href: "/constitution/history",
        };
      return {
        kind: "constitution",
        name: part ? `${part}, ${version}` : version,
        href: "/constitution/history",
      };
    }
    case "key_point":
      return { kind: "key point", name: id, href: "/playbook" };
    case "turn":
      return { kind: "turn", name: id, href: `/turns/${encodeURIComponent(id)}` };
    case "session":
      return id === "(none)"
        ? { kind: "session", name: "none given" }
        : { kind: "session", name: id, href: `/sessions/${encodeURIComponent(id)}` };
    case "weight_set":
      return { kind: "weight set", name: id, href: "/weights" };
    case "playbook":
      return { kind: "playbook", name: "the playbook", href: "/playbook" };
    case "demo":
      return { kind: "demo data", name: "" };
    default:
      return {
        kind: type.replace(/_/g, " "),
        name: stringField(after, "name") ?? stringField(before, "name") ?? id,
      };
  }
}
