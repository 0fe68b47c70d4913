import { and, asc, eq } from "drizzle-orm";
import { database, type MEMBER_ROLES, publisherMembers } from "../db/index";

/** Members of a publisher's studio (docs/publishers.md "Members"): who may sign in, and with which role. */

export type MemberRole = (typeof MEMBER_ROLES)[number];
export type MemberRow = typeof publisherMembers.$inferSelect;

/** Adds `email` to the publisher's members, or changes their role; the member's row after the write. */
export async function putMember(env: Pick<Env, "DB">, publisher: string, email: string, role: MemberRole): Promise<MemberRow> {
  const [row] = await database(env)
    .insert(publisherMembers)
    .values({ publisher, email, role })
    .onConflictDoUpdate({ target: [publisherMembers.publisher, publisherMembers.email], set: { role } })
    .returning();
  return row;
}

/** The publisher's members, by address. */
export function membersOf(env: Pick<Env, "DB">, publisher: string): Promise<MemberRow[]> {
  return database(env).select().from(publisherMembers).where(eq(publisherMembers.publisher, publisher)).orderBy(asc(publisherMembers.email));
}

/** Removes a member; false when there was none. Their studio session then opens nothing of this publisher. */
export async function removeMember(env: Pick<Env, "DB">, publisher: string, email: string): Promise<boolean> {
  const gone = await database(env)
    .delete(publisherMembers)
    .where(and(eq(publisherMembers.publisher, publisher), eq(publisherMembers.email, email)))
    .returning();
  return gone.length > 0;
}

/** The publishers `email` is a member of, with the role in each. */
export function membershipsOf(env: Pick<Env, "DB">, email: string): Promise<MemberRow[]> {
  return database(env).select().from(publisherMembers).where(eq(publisherMembers.email, email)).orderBy(asc(publisherMembers.publisher));
}

/** True when `email` may sign in to the studio: a member of at least one publisher. */
export async function isMember(env: Pick<Env, "DB">, email: string): Promise<boolean> {
  return (await membershipsOf(env, email)).length > 0;
}

/** The role of `email` in the publisher's studio, or null when not a member. */
export async function roleIn(env: Pick<Env, "DB">, publisher: string, email: string): Promise<MemberRole | null> {
  const row = await database(env).query.publisherMembers.findFirst({
    where: and(eq(publisherMembers.publisher, publisher), eq(publisherMembers.email, email)),
  });
  return row?.role ?? null;
}
