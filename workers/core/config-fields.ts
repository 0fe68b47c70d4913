import * as v from "valibot";

/** Field schemas of the Workers' configuration schemas (API: core/config.ts, render: render/config.ts). */

/** An optional text value; empty means unset. */
export const text = v.optional(v.string(), "");

/** A whole number given as text, with its default. */
export function whole(fallback: number) {
  return v.optional(v.pipe(v.string(), v.regex(/^\d+$/, "must be a whole number"), v.transform(Number)), String(fallback));
}

/** "true" or "false"; empty means unset, as for text. */
export function flag(fallback: boolean) {
  return v.pipe(
    v.optional(v.string(), ""),
    v.check((s) => s === "" || s === "true" || s === "false", "must be true or false"),
    v.transform((s) => (s === "" ? fallback : s === "true")),
  );
}

/**
 * The watermark key (WATERMARK_KEY, kernel/watermark/scheme.ts): required, since every narration is
 * marked with it and every detection reads with it; 16 characters at least, so it cannot be guessed.
 */
export const watermarkKey = v.pipe(v.string("must be set"), v.minLength(16, "must be at least 16 characters"));

/** An absolute URL, or empty for unset. */
export const optionalUrl = v.optional(v.union([v.literal(""), v.pipe(v.string(), v.url())], "must be an absolute URL or empty"), "");

/** An http or https base URL, or empty for unset (plain http serves servers on loopback or a LAN). */
export const optionalHttpUrl = v.optional(
  v.union([v.literal(""), v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//i))], "must be an http or https URL, or empty"),
  "",
);

/** A binding wrangler must provide (D1, R2, Queue, service, Durable Object namespace). */
export const binding = v.custom<object>((b) => typeof b === "object" && b !== null, "binding is missing");

/** One configuration problem: the variable and its part, never its value. */
export interface ConfigIssue {
  part: string;
  variable: string;
  message: string;
}

/** Turns valibot issues into ConfigIssues, naming each variable's part of `parts`. */
export function configurationIssues(parts: Record<string, Record<string, unknown>>, issues: readonly v.BaseIssue<unknown>[]): ConfigIssue[] {
  const partOf = (name: string) => Object.entries(parts).find(([, fields]) => name in fields)?.[0] ?? "unknown";
  return issues.map((issue) => {
    const variable = v.getDotPath(issue)?.split(".")[0] ?? "?";
    return { part: partOf(variable), variable, message: issue.message };
  });
}
