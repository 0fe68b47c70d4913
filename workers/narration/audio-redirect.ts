import { AwsV4Signer } from "aws4fetch";
import { audioObjectPath } from "../kernel/audio-objects";

/**
 * Where GET /v1/audio/{key}.mp3 redirects when the bucket is reachable directly (SPEC.md part 4):
 * the public bucket URL when R2_PUBLIC_URL is set, else a SigV4 presigned GET on R2's S3 endpoint
 * when S3 credentials are set, valid for one hour (SPEC.md part 8). Null: stream it ourselves.
 */

/** Lifetime of a presigned audio URL (SPEC.md part 8). */
export const PRESIGNED_URL_SECONDS = 3600;

type RedirectEnv = Pick<Env, "R2_PUBLIC_URL" | "R2_ACCESS_KEY_ID" | "R2_SECRET_ACCESS_KEY" | "R2_ACCOUNT_ID" | "R2_BUCKET_NAME">;

/** The redirect target for `key`'s MP3, or null when neither a public URL nor S3 credentials are configured. */
export async function mp3RedirectUrl(env: Partial<RedirectEnv>, key: string): Promise<string | null> {
  const path = audioObjectPath(key, "mp3");
  if (env.R2_PUBLIC_URL) return `${env.R2_PUBLIC_URL.replace(/\/+$/, "")}/${path}`;
  if (env.R2_ACCESS_KEY_ID && env.R2_SECRET_ACCESS_KEY && env.R2_ACCOUNT_ID && env.R2_BUCKET_NAME) {
    const url = new URL(`https://${env.R2_ACCOUNT_ID}.r2.cloudflarestorage.com/${env.R2_BUCKET_NAME}/${path}`);
    url.searchParams.set("X-Amz-Expires", String(PRESIGNED_URL_SECONDS));
    const signer = new AwsV4Signer({
      url: url.toString(),
      method: "GET",
      accessKeyId: env.R2_ACCESS_KEY_ID,
      secretAccessKey: env.R2_SECRET_ACCESS_KEY,
      service: "s3",
      region: "auto",
      signQuery: true,
    });
    return (await signer.sign()).url.toString();
  }
  return null;
}
