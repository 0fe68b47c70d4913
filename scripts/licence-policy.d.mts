// Types of scripts/licence-policy.mjs for test/licences.test.ts (tsconfig checks TypeScript only).
export const ALLOWED: readonly string[];
export function incompatible(expression: unknown): boolean;
export function violations(packages: readonly { name: string; version: string; licence?: string }[]): string[];
