/** MP3 fixtures for tests outside the render Worker: the same LAME encoder the renders use. */
export { encodeMp3 } from "../../workers/render/engine/mp3";
