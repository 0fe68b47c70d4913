import { env } from "cloudflare:test";
import { startStudioSession } from "../../workers/core/studio-session";
import { database, publisherMembers } from "../../workers/db/index";

/** The Cookie header of a studio session of `email`, made a member of `publisher` with `role` (no sign-in mail). */
export async function studioMemberCookie(publisher: string, email: string, role: "editor" | "viewer"): Promise<string> {
  await database(env).insert(publisherMembers).values({ publisher, email, role }).onConflictDoNothing();
  const setCookie = await startStudioSession(env, email);
  return setCookie.split(";")[0];
}
