import * as v from "valibot";
import { AUDIO_CAPABILITY_PATTERN } from "../kernel/audio-capability";
import { AUDIO_KEY_PATTERN } from "../kernel/audio-objects";

/** The name of an audio in its URL (/v1/audio/{key}.{format}, /v1/audio/{key}.c2pa): a cache key or a capability. */
export const AudioName = v.pipe(
  v.string(),
  v.check(
    (name) => AUDIO_KEY_PATTERN.test(name) || AUDIO_CAPABILITY_PATTERN.test(name),
    "must be a cache key (64 lower-case hex digits) or an audio capability",
  ),
  v.description(
    "A public article's audio: its cache key, the SHA-256 hex of provider, voice and normalised text. Private audio " +
      "(listener_private and publisher_only articles, raw renders): the capability the service handed out, which no text gives.",
  ),
);
