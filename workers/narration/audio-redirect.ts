import { AwsV4Signer } from "aws4fetch";
import { config } from "../core/config";
import { audioObjectPath } from "../kernel/audio-objects";

/**
 * Where GET /v1/audio/{key}.mp3 redirects when the bucket is reachable directly (docs/rules.md "Rules" 4):
 * the public bucket URL when R2_PUBLIC_URL is set, else a SigV4 presigned GET on R2's S3 endpoint
 * when S3 credentials are set, valid for one hour (docs/rules.md "Rules" 8). Null: stream it ourselves.
 * Private audio (not `shared`, narration/audio-access.ts) is never sent to the public bucket URL: it
 * would hand out its content path, which a guessed text gives (issue 40 item 2).
 */

/** Lifetime of a presigned audio URL (docs/rules.md "Rules" 8). */
export const PRESIGNED_URL_SECONDS = 3600;

/** The redirect target for `key`'s MP3, or null when no public URL (for `shared` audio) nor S3 credentials are configured. */
export async function mp3RedirectUrl(env: object, key: string, shared: boolean): Promise<string | null> {
  const path = audioObjectPath(key, "mp3");
  const { R2_PUBLIC_URL, R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY, R2_ACCOUNT_ID, R2_BUCKET_NAME } = config(env);
  if (R2_PUBLIC_URL && shared) return `${R2_PUBLIC_URL.replace(/\/+$/, "")}/${path}`;
  if (R2_ACCESS_KEY_ID && R2_SECRET_ACCESS_KEY && R2_ACCOUNT_ID && R2_BUCKET_NAME) {
    const url = new URL(`https://${R2_ACCOUNT_ID}.r2.cloudflarestorage.com/${R2_BUCKET_NAME}/${path}`);
    url.searchParams.set("X-Amz-Expires", String(PRESIGNED_URL_SECONDS));
    const signer = new AwsV4Signer({
      url: url.toString(),
      method: "GET",
      accessKeyId: R2_ACCESS_KEY_ID,
      secretAccessKey: R2_SECRET_ACCESS_KEY,
      service: "s3",
      region: "auto",
      signQuery: true,
    });
    return (await signer.sign()).url.toString();
  }
  return null;
}
