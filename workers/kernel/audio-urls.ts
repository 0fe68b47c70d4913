/** The audio URL builder lives in public-urls.ts; this re-export serves importers not yet moved there. */
export { AUDIO_FORMATS, type AudioFormat, audioUrl } from "./public-urls";
