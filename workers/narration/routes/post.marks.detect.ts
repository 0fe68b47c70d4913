import * as v from "valibot";
import { ValidationError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { readBodyBytes } from "../../core/validate";
import { detectMark } from "../marks/detect";
import { markLayout } from "../../kernel/watermark/scheme";
import { narrationsMarked } from "../marks/record";
import { recordingSamples } from "../marks/recording";

/** Largest recording read: 16 MiB, about 5.8 minutes of 24 kHz mono WAV or 1.5 of CD audio. */
const MAX_AUDIO_BYTES = 16 << 20;

const MarkReading = named(
  "MarkReading",
  v.object({
    marked: v.pipe(
      v.boolean(),
      v.description(
        "Whether the audio carries this service's watermark: a payload whose checksum holds, or, in a clip across a paragraph boundary too short on either side for its payload, the part every mark of this platform shares (then `payload` is null).",
      ),
    ),
    confidence: v.pipe(
      v.number(),
      v.description("0..1: one minus the chance that unmarked audio would score as high over as many tries; near 0 for unmarked audio."),
    ),
    payload: v.pipe(
      v.nullable(
        v.object({
          synthetic: v.pipe(v.boolean(), v.description("True: the voice is synthetic.")),
          platform: v.pipe(v.number(), v.description("The id of the platform that marked it (1: this narration platform).")),
          id: v.pipe(
            v.string(),
            v.description('8 hex digits: the first 32 bits of the marked paragraph\'s content address (docs/narration.md "The watermark").'),
          ),
          narrations: v.pipe(
            v.array(
              v.object({
                narrated_at: v.pipe(v.string(), v.description("When the narration was made (ISO 8601).")),
                provider: v.pipe(v.string(), v.description("The engine that spoke it.")),
                voice: v.pipe(v.string(), v.description("The voice that spoke it.")),
                duration_seconds: v.number(),
                articles: v.pipe(
                  v.array(
                    v.object({
                      slug: v.string(),
                      title: v.string(),
                      publisher: v.string(),
                      url: v.pipe(v.string(), v.description("The article's page here.")),
                    }),
                  ),
                  v.description("The public articles it narrates; a private or members-only narration is listed without them."),
                ),
              }),
            ),
            v.description(
              "The record the id leads to: every narration stored here that carries this paragraph's mark, oldest first; empty when this deployment never made it.",
            ),
          ),
        }),
      ),
      v.description(
        "What the mark says; null when no mark was read, or when only the part every mark shares was (`marked` true: synthetic, this platform, no id).",
      ),
    ),
  }),
);

export const postMarksDetect = route({
  method: "POST",
  path: "/v1/marks/detect",
  tag: "narration",
  summary: "Whether a recording carries the narration watermark, with a confidence and its payload",
  description:
    "The body is the recording itself: a WAV file (`Content-Type: audio/wav`; PCM of 8 to 32 bits or 32-bit float, any rate and channels) " +
    `or an Ogg Opus file (\`audio/ogg\`, its first six minutes read), at most ${MAX_AUDIO_BYTES} bytes. For MP3 or anything else, decode it to WAV first (\`ffmpeg -i in.mp3 out.wav\`) or run ` +
    "`npm run detect-mark FILE`, which decodes with ffmpeg and also searches speed changes from 0.85x to 1.15x; this endpoint reads the audio at its own speed. " +
    "A mark is read from about ten seconds of speech; the payload says the voice is synthetic, and its id leads to the narrations here that carry it (`narrations`).",
  auth: "none",
  rateLimit: "read",
  responses: {
    200: { description: "The reading, marked or not", schema: MarkReading },
    413: { description: "The recording is over the limit" },
    422: { description: "The body is neither a WAV file this endpoint reads nor Ogg Opus" },
  },
  async handle({ request, env }) {
    const samples = await recordingSamples(env, await readBodyBytes(request, MAX_AUDIO_BYTES));
    if (!samples)
      throw new ValidationError([
        { loc: ["body"], msg: "must be a WAV file of PCM or 32-bit float samples, or Ogg Opus (decode other formats first)", type: "value_error" },
      ]);
    const reading = detectMark(samples, await markLayout(env.WATERMARK_KEY), { speeds: false });
    const payload = reading.payload && { ...reading.payload, narrations: await narrationsMarked(env, reading.payload.id) };
    return Response.json({ ...reading, payload } satisfies v.InferOutput<typeof MarkReading>);
  },
});
